// Jest's global setup, in the parent process before any test worker starts: unpacks the Chromium of
// @sparticuz/chromium (a no-op once it is unpacked), which test/support/browser.ts launches. The package
// takes any `chromium` file in the temporary directory as done, so two workers unpacking at once could
// start a half-written binary. (Global setup runs outside Jest's module mapping: no relative imports.)
import chromiumPackage from '@sparticuz/chromium';

export default async function globalSetup(): Promise<void> {
  if (!process.env.CHROMIUM_PATH) await chromiumPackage.executablePath();
}
