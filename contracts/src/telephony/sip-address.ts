// A SIP trunk's address: a sip:/sips: URI or host[:port], reduced to where a request goes. No user
// part (credentials go in the trunk's authentication), no URI parameters or headers.
import { isIP } from 'node:net';

export const sipTransports = ['udp', 'tcp', 'tls'] as const;
export type SipTransport = (typeof sipTransports)[number];

export interface SipAddress {
  /** A DNS name or an IP address (IPv6 without brackets). */
  host: string;
  port: number;
  /** A sips: URI: only TLS may carry it. */
  secure: boolean;
}

/** RFC 3261 19.1.2: 5060 for UDP and TCP, 5061 for TLS. */
export const defaultSipPort = (transport: SipTransport): number => (transport === 'tls' ? 5061 : 5060);

const dnsName = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;
const hostAndPort = /^(\[[^\]]+\]|[^:[\]]+)(?::(\d{1,5}))?$/;

/** The host, port and scheme of an address, or undefined when it is not one (the port defaults by transport). */
export function parseSipAddress(text: string, transport: SipTransport): SipAddress | undefined {
  const scheme = /^(sips?):/i.exec(text);
  const rest = scheme ? text.slice(scheme[0].length) : text;
  const parts = hostAndPort.exec(rest);
  if (!parts) return undefined;
  const [, rawHost = '', rawPort] = parts;
  const bracketed = rawHost.startsWith('[');
  const host = bracketed ? rawHost.slice(1, -1) : rawHost;
  if (bracketed ? isIP(host) !== 6 : isIP(host) !== 4 && !dnsName.test(host)) return undefined;
  const port = rawPort === undefined ? defaultSipPort(transport) : Number(rawPort);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return undefined;
  return { host: host.toLowerCase(), port, secure: scheme?.[1]?.toLowerCase() === 'sips' };
}
