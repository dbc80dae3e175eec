// VOICE_TRUSTED_PROXIES: the proxies (ingress controller, load balancer) whose X-Forwarded-For
// the gateway believes, as express's `trust proxy` setting takes them. Checked here so a bad
// entry stops the start naming the variable, instead of surfacing later as express's TypeError.
import { isIP } from 'node:net';
import { ConfigError, readOptionalString, type Env } from '@voice/runtime/config';

const variable = 'VOICE_TRUSTED_PROXIES';

/** The named ranges express (proxy-addr) knows: 127.0.0.1/8 and ::1; 169.254.0.0/16 and fe80::/10; 10/8, 172.16/12, 192.168/16 and fc00::/7. */
export const proxyRangeNames = ['loopback', 'linklocal', 'uniquelocal'] as const;

/** Why an entry is not an address, a CIDR range or a range name; undefined when it is one. */
function problemWith(entry: string): string | undefined {
  if ((proxyRangeNames as readonly string[]).includes(entry)) return undefined;
  const [address = '', prefix, ...rest] = entry.split('/');
  // A zone (fe80::1%eth0) names an interface of this host, never a peer's address.
  const family = address.includes('%') ? 0 : isIP(address);
  if (rest.length > 0 || family === 0) return `"${entry}" is not an IP address, a CIDR range or one of ${proxyRangeNames.join(', ')}`;
  if (prefix === undefined) return undefined;
  const max = family === 4 ? 32 : 128;
  // Prefix 0 would trust every address, so any client could name itself; proxy-addr refuses it too.
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) < 1 || Number(prefix) > max) return `"${entry}" needs a prefix length from 1 to ${max}`;
  return undefined;
}

/** The trusted proxies, in the order given; none (trust nobody: the socket's address is the client) when unset or empty. */
export function readTrustedProxies(env: Env): string[] {
  const value = readOptionalString(env, variable);
  if (value === undefined) return [];
  const entries = value.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (entry === '') throw new ConfigError(variable, `has an empty entry in "${value}"`);
    const problem = problemWith(entry);
    if (problem) throw new ConfigError(variable, `must list IP addresses and CIDR ranges separated by commas: ${problem}`);
  }
  return entries;
}
