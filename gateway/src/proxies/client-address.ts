// The client's address, the one rule for every use of it (the OAuth rate limits): express's
// req.ip, which follows X-Forwarded-For through the trusted proxies (VOICE_TRUSTED_PROXIES, the
// app's `trust proxy` setting) to the right-most hop they do not vouch for, and is the socket's
// address when nobody is trusted.
import { isIP } from 'node:net';
import type { Request } from 'express';

/** Requests whose client address is unknown or not an address share this key. */
const unknownClient = 'unknown';

export function clientAddress(req: Request): string {
  const address = req.ip;
  // A trusted proxy that forwards something else (a port, a name) must not mint a key per value.
  if (address === undefined || isIP(address) === 0) return unknownClient;
  // One client, one key: an IPv4 peer on a dual-stack socket shows up as ::ffff:a.b.c.d.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : address.toLowerCase();
}
