// The API reference page in a real browser (headless Chromium): /docs renders the OpenAPI document
// with the Scalar bundle the gateway serves itself, within its Content-Security-Policy, and the
// page asks nothing of any other origin (no CDN, fonts or telemetry).
import type { Browser } from 'playwright-core';
import { launchChromium } from './support/browser.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';

let platform: TestPlatform;
let browser: Browser;

beforeAll(async () => {
  platform = await startTestPlatform();
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await platform?.close();
});

test('the headers of /docs allow scripts from the gateway only, and the bundle is served by the gateway', async () => {
  const page = await fetch(`${platform.running.url}/docs`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  const policy = page.headers.get('content-security-policy') ?? '';
  expect(policy).toContain("default-src 'none'");
  expect(policy).toContain("script-src 'self'");
  expect(policy).not.toMatch(/script-src[^;]*(unsafe-inline|unsafe-eval|https?:)/);
  expect(policy).toContain("connect-src 'self'");
  const html = await page.text();
  expect(html).toContain('<script src="/docs/scalar.js"></script>');
  expect(html).not.toMatch(/https?:\/\//);

  const bundle = await fetch(`${platform.running.url}/docs/scalar.js`);
  expect(bundle.status).toBe(200);
  expect(bundle.headers.get('content-type')).toMatch(/^text\/javascript/);
  expect(await bundle.text()).toContain('createApiReference');
});

test('/docs renders the API reference without a request outside the gateway', async () => {
  const origin = new URL(platform.running.url).origin;
  const context = await browser.newContext();
  const page = await context.newPage();
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  // Runs in the page (the tests compile without DOM types, so as source text).
  await page.addInitScript({
    content: `window.cspViolations = [];
      document.addEventListener('securitypolicyviolation', (event) => window.cspViolations.push(event.effectiveDirective + ' ' + event.blockedURI));`,
  });

  // The first operation of the document (its tag opens first), by its summary.
  const openapi = (await (await fetch(`${platform.running.url}/api/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, { summary: string }>> };
  const firstSummary = Object.values(Object.values(openapi.paths)[0]!)[0]!.summary;

  await page.goto(`${platform.running.url}/docs`);
  await expect(page.title()).resolves.toBe('Voice platform API reference');
  await page.getByRole('heading', { name: 'Voice platform API' }).first().waitFor({ timeout: 20_000 });
  await page.getByText(firstSummary).first().waitFor({ timeout: 20_000 });

  expect(requests).toContain(`${origin}/api/v1/openapi.json`);
  const elsewhere = requests.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:') && !url.startsWith('blob:'));
  expect(elsewhere).toEqual([]);
  expect(await page.evaluate('window.cspViolations')).toEqual([]);
  expect(consoleErrors.filter((text) => /Content Security Policy/i.test(text))).toEqual([]);
  await context.close();
}, 60_000);

test('the introduction’s error table reads well: one line per status and code, the meaning given the room, nothing spilling out', async () => {
  for (const width of [1400, 900]) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(`${platform.running.url}/docs`);
    const table = page.locator('.introduction-section table').first();
    await table.waitFor({ timeout: 20_000 });
    // Runs in the page (the tests compile without DOM types, so as source text).
    const layout = (await page.evaluate(`(() => {
      const table = document.querySelector('.introduction-section table');
      // The line boxes a cell's text takes.
      const lines = (cell) => { const range = document.createRange(); range.selectNodeContents(cell); return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size; };
      const rows = [...table.querySelectorAll('tbody tr')].map((row) => [...row.cells]);
      const container = table.parentElement;
      return {
        headers: [...table.querySelectorAll('th')].map((cell) => cell.textContent.trim()),
        statuses: rows.map((cells) => cells[0].textContent.trim()),
        statusLines: rows.map((cells) => lines(cells[0])),
        codeLines: rows.map((cells) => lines(cells[1])),
        meaningShare: rows[0][2].getBoundingClientRect().width / table.getBoundingClientRect().width,
        spills: table.getBoundingClientRect().right > container.getBoundingClientRect().right + 1 || container.scrollWidth > container.clientWidth + 1,
      };
    })()`)) as { headers: string[]; statuses: string[]; statusLines: number[]; codeLines: number[]; meaningShare: number; spills: boolean };
    expect([width, layout.headers]).toEqual([width, ['Status', 'Code', 'Meaning']]);
    expect(layout.statuses.length).toBeGreaterThanOrEqual(11);
    expect(layout.statuses).toEqual([...layout.statuses].sort());
    expect([width, layout.statusLines, layout.codeLines]).toEqual([width, layout.statuses.map(() => 1), layout.statuses.map(() => 1)]);
    expect([width, layout.meaningShare > 0.45]).toEqual([width, true]);
    expect([width, layout.spills]).toEqual([width, false]);
    await page.close();
  }
}, 60_000);
