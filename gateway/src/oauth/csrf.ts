// CSRF protection of the login and consent form: a random nonce in an HttpOnly, SameSite
// cookie, and in the form an HMAC of it that only this server can make.
import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Signer } from '@voice/runtime/signed-tokens';

const cookieName = 'voice_oauth_csrf';

export function cookiesOf(req: Request): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) cookies[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return cookies;
}

export class CsrfGuard {
  constructor(private readonly signer: Signer, private readonly secureCookies: () => boolean) {}

  /** Sets a fresh nonce cookie and returns the token the form must carry. */
  issue(res: Response): string {
    const nonce = randomBytes(32).toString('base64url');
    const secure = this.secureCookies() ? '; Secure' : '';
    res.append('Set-Cookie', `${cookieName}=${nonce}; Path=/oauth; HttpOnly; SameSite=Strict; Max-Age=1800${secure}`);
    return this.signer.sign(nonce);
  }

  verify(req: Request, token: string | undefined): boolean {
    const nonce = cookiesOf(req)[cookieName];
    return Boolean(nonce && token && this.signer.verify(nonce, token));
  }
}
