// Headless Debian Chromium for browser tests, with the flags this machine's closed network needs
// (no background connections, no QUIC, no first-run work).
import { chromium, type Browser } from 'playwright-core';

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
