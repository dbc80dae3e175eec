// The last step of `npm test`: with MONGODB_URI set, the end-to-end files that touch each
// service's storage run once more with every service on MongoDB (jest.mongodb.config.js); without
// it, a note says what was skipped (the MongoDB store contract suites say so too, in the main run).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

if (!process.env.MONGODB_URI) {
  console.log(
    '\nMongoDB run skipped: MONGODB_URI is not set, so the MongoDB store contract suites and the end-to-end files on MongoDB did not run.\n' +
      'Set it (e.g. to ../shared/mongo-compat/start\'s URI, as .ci/run does) to run them.\n',
  );
  process.exit(0);
}
console.log('\nMongoDB run: the end-to-end files that touch each service\'s storage, with every service on MongoDB (jest.mongodb.config.js).\n');
const jest = createRequire(import.meta.url).resolve('jest/bin/jest');
const run = spawnSync(process.execPath, [jest, '-c', 'jest.mongodb.config.js', ...process.argv.slice(2)], { stdio: 'inherit' });
if (run.error) throw run.error;
process.exit(run.status ?? 1);
