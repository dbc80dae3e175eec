// HTTP Digest authentication as SIP uses it (RFC 3261 22.4, RFC 2617 with MD5): the answer to a
// 401 (WWW-Authenticate) or 407 (Proxy-Authenticate) challenge with the trunk's credentials.
import { createHash, randomBytes } from 'node:crypto';

export interface DigestCredentials {
  username: string;
  password: string;
}

const md5 = (text: string): string => createHash('md5').update(text).digest('hex');

/** The parameters of a `Digest ...` challenge, or undefined for another scheme (or an algorithm other than MD5). */
export function parseDigestChallenge(header: string): Record<string, string> | undefined {
  const scheme = /^\s*Digest\s+/i.exec(header);
  if (!scheme) return undefined;
  const params: Record<string, string> = {};
  for (const match of header.slice(scheme[0].length).matchAll(/([A-Za-z-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))/g)) {
    params[match[1]!.toLowerCase()] = match[2] ?? match[3] ?? '';
  }
  if (params.realm === undefined || params.nonce === undefined) return undefined;
  if (params.algorithm !== undefined && params.algorithm.toUpperCase() !== 'MD5') return undefined;
  return params;
}

/** The Authorization (401) or Proxy-Authorization (407) header answering the challenge for `uri`. */
export function digestAuthorization(status: 401 | 407, challenge: Record<string, string>, credentials: DigestCredentials, method: string, uri: string): string {
  const ha1 = md5(`${credentials.username}:${challenge.realm}:${credentials.password}`);
  const ha2 = md5(`${method}:${uri}`);
  const qopAuth = (challenge.qop ?? '').split(',').map((value) => value.trim()).includes('auth');
  const cnonce = randomBytes(8).toString('hex');
  const nc = '00000001';
  const response = qopAuth ? md5(`${ha1}:${challenge.nonce}:${nc}:${cnonce}:auth:${ha2}`) : md5(`${ha1}:${challenge.nonce}:${ha2}`);
  const quoted = (value: string) => `"${value.replace(/["\\]/g, '\\$&')}"`;
  const fields = [
    `username=${quoted(credentials.username)}`,
    `realm=${quoted(challenge.realm!)}`,
    `nonce=${quoted(challenge.nonce!)}`,
    `uri=${quoted(uri)}`,
    `response=${quoted(response)}`,
    'algorithm=MD5',
    ...(qopAuth ? ['qop=auth', `nc=${nc}`, `cnonce=${quoted(cnonce)}`] : []),
    ...(challenge.opaque !== undefined ? [`opaque=${quoted(challenge.opaque)}`] : []),
  ];
  return `${status === 401 ? 'Authorization' : 'Proxy-Authorization'}: Digest ${fields.join(', ')}`;
}
