// GET /docs: the API reference, rendered in the browser by Scalar from /api/v1/openapi.json. The
// gateway serves Scalar's standalone bundle itself, so the page loads nothing from elsewhere
// (no CDN, no web fonts, no telemetry), and its Content-Security-Policy allows only this origin.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Express, Request, Response } from 'express';
import { escapeHtml } from '../oauth/page/html.js';
import { openApiPath } from '../openapi/route.js';

export const docsPath = '/docs';

/** The gateway package's folder: the nearest one with a package.json, from src/ (tests) or dist/src/. */
function gatewayRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return dir;
}

/**
 * Scalar's browser bundle, copied into the build by `scripts/vendor-scalar.mjs` (`npm run build`):
 * Scalar is a build-time dependency, so production installs none of its packages.
 */
const scalarBundlePath = () => join(gatewayRoot(), 'dist', 'assets', 'scalar', 'standalone.js');

/**
 * The introduction as one column, the request cards after it: beside them its tables (the error
 * codes) were squeezed into a third of the page, codes broken mid-word. Status and code cells keep
 * to one line; the meaning takes the rest.
 */
const customCss = `
.introduction-section .section-columns { flex-direction: column; }
.introduction-section .section-column { width: 100%; max-width: none; }
.introduction-section .markdown table { table-layout: auto; width: 100%; }
.introduction-section .markdown td:first-child, .introduction-section .markdown th:first-child,
.introduction-section .markdown td code { white-space: nowrap; }
`;

/** Scalar's settings: no default fonts (fonts.scalar.com), no telemetry, no hosted agent, no proxy. */
const scalarConfiguration = {
  customCss,
  url: openApiPath,
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  hideClientButton: false,
  defaultOpenFirstTag: true,
  operationTitleSource: 'summary',
};

/**
 * Runs before the bundle: the zod inside it would otherwise probe `Function('')` for its JIT, which
 * the policy (rightly) refuses; jitless, it parses without eval. The reference starts once the
 * bundle has loaded.
 */
const initScript = `globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
document.addEventListener('DOMContentLoaded', function () {
  Scalar.createApiReference('#app', ${JSON.stringify(scalarConfiguration)});
});
`;

/**
 * Scripts only from this origin (no inline script, no eval); data only from it. Styles may be inline:
 * Scalar and the libraries in its bundle inject <style> elements, most without a nonce.
 */
const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function page(title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
</head>
<body>
<div id="app"></div>
<script src="${docsPath}/init.js"></script>
<script src="${docsPath}/scalar.js"></script>
</body>
</html>
`;
}

interface Bundle {
  plain: Buffer;
  gzipped: Buffer;
}

export function registerDocsRoutes(app: Express, options: { platformName: () => string }): void {
  let bundle: Promise<Bundle> | undefined;
  const loadBundle = () =>
    (bundle ??= readFile(scalarBundlePath()).then(async (plain) => ({ plain, gzipped: await promisify(gzip)(plain) }))).catch((error: unknown) => {
      bundle = undefined;
      throw error;
    });

  app.get(docsPath, (_req, res) => {
    res.setHeader('Content-Security-Policy', contentSecurityPolicy);
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.type('html').send(page(`${options.platformName()} API reference`));
  });

  app.get(`${docsPath}/init.js`, (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.type('text/javascript').send(initScript);
  });

  app.get(`${docsPath}/scalar.js`, (req: Request, res: Response, next) => {
    loadBundle().then(({ plain, gzipped }) => {
      const acceptsGzip = /\bgzip\b/.test(req.get('accept-encoding') ?? '');
      res.setHeader('Cache-Control', 'public, max-age=3600');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Vary', 'Accept-Encoding');
      if (acceptsGzip) res.setHeader('Content-Encoding', 'gzip');
      res.type('text/javascript').send(acceptsGzip ? gzipped : plain);
    }, next);
  });
}
