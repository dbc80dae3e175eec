// Headless Chromium for browser tests: the binary shipped inside the @sparticuz/chromium npm package (so
// `npm install && npm test` needs nothing from apt), or CHROMIUM_PATH, with the flags this machine's closed
// network needs (no background connections, no QUIC, no first-run work). Not the package's own flag set: it
// turns web security off, and these tests check Content-Security-Policy and CORS.
import chromiumPackage from '@sparticuz/chromium';
import { chromium, type Browser } from 'playwright-core';

/** Where the binary is: unpacked into the temporary directory once per machine (Jest's global setup does it first). */
export const chromiumExecutable = async (): Promise<string> => process.env.CHROMIUM_PATH ?? (await chromiumPackage.executablePath());

export const launchChromium = async (): Promise<Browser> =>
  chromium.launch({
    executablePath: await chromiumExecutable(),
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
