// The redirect URI rules of SPEC.md 5.7, used by registration, metadata documents and
// authorization alike: HTTPS anywhere; HTTP only on the literal loopback hosts 127.0.0.1 and
// [::1], where any port matches (RFC 8252 7.3); never localhost, a fragment or credentials.
import { maxClientUriLength } from '@voice/runtime/oauth';

const loopbackHosts = ['127.0.0.1', '[::1]'];

/** Scheme and authority as written: the URL parser would turn 127.1 into 127.0.0.1 and drop an empty fragment. */
const authorityPattern = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)/;

function hostOf(authority: string): string {
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
}

/** Why the URI may not be a redirect URI, or undefined when it may. */
export function redirectUriIssue(uri: string): string | undefined {
  if (uri.length === 0 || uri.length > maxClientUriLength) return `must be 1 to ${maxClientUriLength} characters`;
  // The URL parser silently drops tabs and newlines; what is registered must be what is compared.
  if (/[\s\x00-\x1f\x7f]/.test(uri)) return 'must not contain whitespace or control characters';
  const written = authorityPattern.exec(uri);
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not a valid absolute URI';
  }
  if (!written) return 'is not a valid absolute URI';
  if (uri.includes('#')) return 'must not contain a fragment';
  if (written[2]!.includes('@') || url.username || url.password) return 'must not contain a user name or password';
  const hostname = url.hostname.replace(/\.$/, '');
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return 'must not use the host name localhost; use 127.0.0.1 or [::1]';
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must use https (or http on 127.0.0.1 or [::1])';
  // What is registered must be what a browser goes to: no dot segments or other non-canonical paths.
  if ((uri.slice(written[0].length) || '/') !== url.pathname + url.search) return 'must be in canonical form (no dot segments)';
  if (url.protocol === 'https:') return undefined;
  return loopbackHosts.includes(hostOf(written[2]!)) ? undefined : 'may use http only on the loopback addresses 127.0.0.1 or [::1]';
}

const defaultPorts: Record<string, string> = { http: '80', https: '443' };

/**
 * The form a redirect URI is stored and compared in: scheme and host in lower case and the scheme's
 * default port dropped (RFC 3986 6.2.2.1, 6.2.3), path and query exactly as written. So
 * `HTTPS://App.Example:443/cb` and `https://app.example/cb` are one URI, as they are to a browser.
 */
export function canonicalRedirectUri(uri: string): string {
  const written = authorityPattern.exec(uri);
  const hostAndPort = written ? /^(\[[^\]]*\]|[^:@]*)(?::(\d*))?$/.exec(written[2]!) : null;
  if (!written || !hostAndPort) return uri;
  const scheme = written[1]!.toLowerCase();
  const port = hostAndPort[2];
  const keptPort = port && port !== defaultPorts[scheme] ? `:${port}` : '';
  return `${scheme}://${hostAndPort[1]!.toLowerCase()}${keptPort}${uri.slice(written[0].length)}`;
}

/** An http URI on a literal loopback host: its port is chosen by the native app at run time. */
function isLoopback(uri: string): boolean {
  const written = authorityPattern.exec(uri);
  return written?.[1]?.toLowerCase() === 'http' && loopbackHosts.includes(hostOf(written[2]!));
}

/**
 * Whether a requested redirect URI matches a registered one: equality of their canonical forms, except
 * that a loopback registration matches the same scheme, host, path and query on any port.
 */
export function redirectUriMatches(registered: string, requested: string): boolean {
  if (canonicalRedirectUri(registered) === canonicalRedirectUri(requested)) return true;
  if (!isLoopback(registered) || !isLoopback(requested) || redirectUriIssue(requested) !== undefined) return false;
  const a = new URL(registered);
  const b = new URL(requested);
  return hostOf(authorityPattern.exec(registered)![2]!) === hostOf(authorityPattern.exec(requested)![2]!) && a.pathname === b.pathname && a.search === b.search;
}

/** True when the requested URI is one of the client's redirect URIs and itself allowed. */
export const isRegisteredRedirectUri = (registered: readonly string[], requested: string): boolean =>
  redirectUriIssue(requested) === undefined && registered.some((uri) => redirectUriMatches(uri, requested));
