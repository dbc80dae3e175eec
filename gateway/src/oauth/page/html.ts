// HTML escaping, the page frame and the security headers shared by every HTML page (OAuth sign-in,
// invitations): plain HTML and CSS, no script.
import type { Response } from 'express';

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => entities[c]!);

const styles = `
  *{box-sizing:border-box}
  body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f7;color:#1d2330}
  main{max-width:28rem;margin:3rem auto;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px rgba(0,0,0,.08)}
  h1{font-size:1.35rem;margin:0 0 .25rem} .brand{color:#5b6475;font-size:.9rem;margin:0 0 1.5rem}
  ul.scopes{padding-left:1.2rem;margin:.5rem 0 1.25rem} ul.scopes li{margin:.15rem 0}
  label{display:block;font-weight:600;margin:.75rem 0 .25rem}
  input[type=email],input[type=password],select{width:100%;padding:.6rem .7rem;border:1px solid #c4c9d4;border-radius:8px;font:inherit}
  .actions{display:flex;gap:.75rem;margin-top:1.5rem}
  button{flex:1;padding:.65rem;border-radius:8px;font:inherit;font-weight:600;cursor:pointer;border:1px solid #2d5bd7}
  button.approve{background:#2d5bd7;color:#fff} button.deny{background:#fff;color:#2d5bd7}
  .error{background:#fdecec;color:#8a1c1c;border-radius:8px;padding:.6rem .8rem;margin:0 0 1rem}
  .muted{color:#5b6475;font-size:.9rem}
  .destination{border:2px solid #2d5bd7;border-radius:8px;padding:.6rem .8rem;margin:0 0 1rem}
  .destination p{margin:0} .redirect-host{font-size:1.3rem;font-weight:700;word-break:break-all}
  .unverified{background:#fff4e0;color:#7a4a00;border-radius:8px;padding:.6rem .8rem}
  .claim{color:#5b6475;font-size:.9rem;word-break:break-all}
`;

export function page(title: string, platformName: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${escapeHtml(platformName)}</title>
<style>${styles}</style>
</head>
<body>
<main>
<p class="brand">${escapeHtml(platformName)}</p>
${body}
</main>
</body>
</html>`;
}

export const hiddenFields = (fields: Record<string, string>): string =>
  Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');

/** Sends a page that may not be framed, cached, or leak its URL (which can carry a secret) as a referrer. */
export function sendPage(res: Response, status: number, html: string): void {
  res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'");
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cache-Control', 'no-store');
  res.status(status).type('html').send(html);
}
