// Client authentication at the token and revocation endpoints (RFC 6749 2.3.1): HTTP Basic
// or client_id/client_secret in the form; never both.
import type { Request } from 'express';
import { OAuthError } from './oauth-error.js';

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  /** How they came, so identity can hold a confidential client to the method it registered. */
  method: 'client_secret_basic' | 'client_secret_post' | 'none';
}

const formDecode = (value: string): string => decodeURIComponent(value.replace(/\+/g, ' '));

const malformedBasic = () =>
  new OAuthError('invalid_client', 'the Basic credentials must be the base64 of client_id:client_secret, each form-encoded (RFC 6749 2.3.1)', 401);

export function clientCredentialsOf(req: Request, form: Record<string, string>): ClientCredentials {
  const header = req.get('authorization');
  const basic = header ? /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header.trim()) : null;
  if (header && !basic) {
    // Only a scheme followed by its credentials is named: a bare value may itself be a credential.
    const scheme = /^([A-Za-z][A-Za-z0-9-]{0,19})\s+\S/.exec(header.trim())?.[1];
    if (scheme?.toLowerCase() === 'basic' || header.trim().toLowerCase() === 'basic') throw malformedBasic();
    throw new OAuthError('invalid_client', `the Authorization header must carry HTTP Basic client credentials${scheme ? `, not ${scheme}` : ''}`, 401);
  }
  if (basic) {
    if (form.client_secret !== undefined) {
      throw new OAuthError('invalid_request', 'the client secret is sent both in the Authorization header and as client_secret in the form; send it one way');
    }
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw malformedBasic();
    try {
      const clientId = formDecode(decoded.slice(0, colon));
      if (form.client_id !== undefined && form.client_id !== clientId) {
        throw new OAuthError('invalid_request', 'client_id in the form is not the client_id of the Authorization header');
      }
      return { clientId, clientSecret: formDecode(decoded.slice(colon + 1)), method: 'client_secret_basic' };
    } catch (error) {
      if (error instanceof OAuthError) throw error;
      throw malformedBasic();
    }
  }
  if (!form.client_id) throw new OAuthError('invalid_request', 'client_id is required');
  return { clientId: form.client_id, clientSecret: form.client_secret ?? '', method: form.client_secret === undefined ? 'none' : 'client_secret_post' };
}
