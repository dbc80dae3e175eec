// Tests of scripts/deploy-validate.mjs: the committed deployment passes, and deliberately broken
// copies of it fail with the field named (an unknown field, a wrong type, an unknown kind, a
// weakened securityContext, a dangling reference). Run by `npm run validate:deploy`.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkDockerfiles, checkMongoDatabases, validateDeploy } from './deploy-validate.mjs';
import { buildClosure, runtimeClosure } from '../deploy/docker/workspaces.mjs';

const deployDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'deploy');
const scratch = mkdtempSync(join(tmpdir(), 'deploy-validate-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

let copies = 0;
/** A copy of deploy/ with `file` edited; fails the test when the edit would change nothing. */
function brokenCopy(file, edit) {
  const dir = join(scratch, `copy${copies++}`);
  cpSync(deployDir, dir, { recursive: true });
  const path = join(dir, file);
  const before = readFileSync(path, 'utf8');
  const changed = edit(before);
  assert.notEqual(changed, before, `the edit of ${file} changed nothing`);
  writeFileSync(path, changed);
  return dir;
}

const quiet = () => {};
const validate = (dir, targets = ['base']) => validateDeploy({ deployDir: dir, targets, skipDockerfiles: true, log: quiet });

describe('deploy validation', () => {
  test('the committed Dockerfiles and every kustomize target pass', async () => {
    const lines = [];
    const problems = await validateDeploy({ log: (line) => lines.push(line) });
    assert.deepEqual(problems, []);
    assert.ok(lines.some((line) => line.startsWith('overlays/development:')));
    assert.ok(lines.some((line) => line.startsWith('overlays/production:')));
  });

  test('an unknown field fails, naming it', async () => {
    const dir = brokenCopy('base/identity.yaml', (text) => text.replace('          image: voice/identity\n', '          image: voice/identity\n          imagePullPolicyy: Always\n'));
    const problems = await validate(dir);
    assert.ok(
      problems.some((line) => line.includes('Deployment/identity: spec.template.spec.containers[0].imagePullPolicyy') && line.includes('known properties')),
      problems.join('\n'),
    );
  });

  test('an unknown field deep in a nested object fails too', async () => {
    const dir = brokenCopy('base/gateway.yaml', (text) => text.replace('              path: /readyz\n', '              path: /readyz\n              schema: HTTP\n'));
    const problems = await validate(dir);
    assert.ok(problems.some((line) => line.includes('readinessProbe.httpGet.schema')), problems.join('\n'));
  });

  test('a wrong type fails, naming the field', async () => {
    const dir = brokenCopy('base/tools.yaml', (text) => text.replace('  replicas: 2\n', '  replicas: "two"\n'));
    const problems = await validate(dir);
    assert.ok(
      problems.some((line) => line.includes('Deployment/tools: spec.replicas') && line.includes("Type 'string' is not assignable to type 'number'")),
      problems.join('\n'),
    );
  });

  test('a missing required field fails', async () => {
    const dir = brokenCopy('base/billing.yaml', (text) => text.replace('              containerPort: 50054\n', ''));
    const problems = await validate(dir);
    assert.ok(problems.some((line) => line.includes('Deployment/billing') && line.includes('containerPort')), problems.join('\n'));
  });

  test('an unknown apiVersion or kind fails', async () => {
    const dir = brokenCopy('base/gateway.yaml', (text) => text.replace('kind: PodDisruptionBudget', 'kind: PodDisruptionBudgett'));
    const problems = await validate(dir);
    assert.ok(problems.some((line) => line.includes('unknown apiVersion/kind policy/v1/PodDisruptionBudgett')), problems.join('\n'));
  });

  test('a weakened securityContext fails the rules', async () => {
    const dir = brokenCopy('base/billing.yaml', (text) => text.replace('            readOnlyRootFilesystem: true\n', '            readOnlyRootFilesystem: false\n'));
    const problems = await validate(dir);
    assert.ok(problems.some((line) => line.includes('Deployment/billing: container billing: readOnlyRootFilesystem must be true')), problems.join('\n'));
  });

  test('a dangling reference fails the rules', async () => {
    const dir = brokenCopy('base/telephony.yaml', (text) => text.replace('      targetPort: grpc\n', '      targetPort: grcp\n'));
    const problems = await validate(dir);
    assert.ok(problems.some((line) => line.includes('Service/telephony: targetPort grcp is not a container port')), problems.join('\n'));
  });

  test('a pod that reads NATS_URL must be allowed to reach NATS by its egress policies', async () => {
    const dir = brokenCopy('components/network-policies/policies.yaml', (text) => {
      const start = text.indexOf('  name: billing-egress');
      const end = text.indexOf('\n---', start);
      return text.slice(0, start) + text.slice(start, end).replace('port: 4222', 'port: 4223') + text.slice(end);
    });
    const problems = await validate(dir, ['overlays/production']);
    assert.ok(problems.some((line) => line.includes('Deployment/billing: reads NATS_URL, but no egress NetworkPolicy selecting it allows NATS (port 4222)')), problems.join('\n'));
  });

  test('a pod that reads NATS_URL must be admitted by the NATS pods\' ingress policy', async () => {
    const dir = brokenCopy('components/network-policies/policies.yaml', (text) => {
      const start = text.indexOf('  name: nats\n');
      const end = text.indexOf('\n---', start);
      const admitted = '        - podSelector:\n            matchLabels:\n              app.kubernetes.io/name: tools\n';
      return text.slice(0, start) + text.slice(start, end).replace(admitted, '') + text.slice(end);
    });
    const problems = await validate(dir, ['overlays/production']);
    assert.ok(problems.some((line) => line.includes('Deployment/tools: reads NATS_URL, but no ingress NetworkPolicy of the NATS pods admits it on port 4222')), problems.join('\n'));
  });

  test('a pod that reads MONGODB_URI must be admitted by the MongoDB pods\' ingress policy', async () => {
    const dir = brokenCopy('components/network-policies/policies.yaml', (text) => {
      const start = text.indexOf('  name: mongodb\n');
      const end = text.indexOf('\n---', start);
      const admitted = '        - podSelector:\n            matchLabels:\n              app.kubernetes.io/name: webhooks-delivery\n';
      return text.slice(0, start) + text.slice(start, end).replace(admitted, '') + text.slice(end);
    });
    const problems = await validate(dir, ['overlays/production']);
    assert.ok(problems.some((line) => line.includes('Deployment/webhooks-delivery: reads MONGODB_URI, but no ingress NetworkPolicy of the MongoDB pods admits it on port 27017')), problems.join('\n'));
  });

  test('every process of runtime\'s port table must have its Deployment', async () => {
    const dir = brokenCopy('base/kustomization.yaml', (text) => text.replace('  - campaigns-dialer.yaml\n', ''));
    const problems = await validate(dir);
    assert.ok(problems.some((line) => line.includes("base: no Deployment runs campaigns-dialer, a process of runtime's servicePorts table")), problems.join('\n'));
  });

  test('the development overlay must generate every Secret it references', async () => {
    const dir = brokenCopy('overlays/development/kustomization.yaml', (text) => text.replace(/  - name: voice-encryption\n    literals:\n      - VOICE_ENCRYPTION_KEY=[0-9a-f]+\n/, ''));
    const problems = await validate(dir, ['overlays/development']);
    assert.ok(problems.some((line) => line.includes('refers to Secret voice-encryption, which this target does not generate')), problems.join('\n'));
  });

  test('a service whose store is MongoDB but whose database the init Job grants nothing on fails', async () => {
    const dir = brokenCopy('components/mongodb/init-replica-set.js', (text) => text.replace(", 'webhooks'", ''));
    assert.deepEqual(checkMongoDatabases(dir), ['components/mongodb/init-replica-set.js: the application user gets no readWrite on the database of webhooks, whose store is MongoDB in production']);
    assert.deepEqual(checkMongoDatabases(deployDir), []);
  });

  test('a broken Dockerfile fails, naming what is wrong', async () => {
    const repo = join(deployDir, '..');
    const edited = (path) => {
      const text = readFileSync(join(repo, path), 'utf8');
      if (path !== 'Dockerfile') return text;
      return text
        .replace(/^CMD .*$/m, 'CMD node main.js')
        .replace(/^USER .*$/m, 'USR 1000')
        .replace(/^COPY services\/billing\/package\.json services\/billing\/\n/m, '');
    };
    const { problems } = await checkDockerfiles({ read: edited });
    assert.ok(problems.some((line) => line.startsWith('Dockerfile:') && line.includes('Unknown instruction: USR')), problems.join('\n'));
    assert.ok(problems.some((line) => line.includes('lacks CMD ["node", <flags>, "main.js"]')), problems.join('\n'));
    assert.ok(problems.some((line) => line.includes('lacks a numeric non-root USER')), problems.join('\n'));
    assert.ok(problems.includes('Dockerfile: the manifests stage lacks COPY services/billing/package.json services/billing/'), problems.join('\n'));
    assert.ok(problems.every((line) => line.startsWith('Dockerfile')), problems.join('\n'));
  });

  test('an image whose port or host variable its configuration does not read fails (a service\'s, a media listener\'s, the gateway\'s)', async () => {
    const repo = join(deployDir, '..');
    const edited = (path) => {
      const text = readFileSync(join(repo, path), 'utf8');
      if (path === 'services/runtime/src/config/services.ts') {
        return text.replace('  tools: 50052,', '  tools: 50059,').replace("sandboxRuntime: { prefix: 'VOICE_SANDBOX_RUNTIME', port: 50060 }", "sandboxRuntime: { prefix: 'VOICE_SANDBOX', port: 50062 }");
      }
      return path === 'gateway/src/config.ts' ? text.replace("readString(env, 'HOST', '0.0.0.0')", "readString(env, 'GATEWAY_HOST', '0.0.0.0')") : text;
    };
    const { problems } = await checkDockerfiles({ read: edited });
    assert.deepEqual(problems, [
      'deploy/docker/images.mjs: tools listens on another port than 50052 by default',
      "deploy/docker/images.mjs: voice-sandbox's configuration reads no VOICE_SANDBOX_RUNTIME_HOST",
      'deploy/docker/images.mjs: voice-sandbox listens on another port than 50060 by default',
      "deploy/docker/images.mjs: gateway's configuration reads no HOST",
    ]);
  });

  test("the gateway's image is built from and runs with no service's code; a service's with its own", () => {
    const repo = join(deployDir, '..');
    for (const closure of [buildClosure, runtimeClosure]) {
      assert.deepEqual(closure(repo, 'gateway'), ['proto', 'services/runtime', 'contracts', 'gateway']);
      assert.deepEqual(closure(repo, 'services/billing'), ['proto', 'services/runtime', 'services/billing']);
    }
  });

  test('production images must be pinned to a release', async () => {
    const dir = brokenCopy('overlays/production/kustomization.yaml', (text) => text.replace('    newName: registry.example.com/voice/billing\n    newTag: 0.1.0\n', '    newName: registry.example.com/voice/billing\n    newTag: dev\n'));
    const problems = await validate(dir, ['overlays/production']);
    assert.ok(problems.some((line) => line.includes('image registry.example.com/voice/billing:dev is not pinned')), problems.join('\n'));
  });
});
