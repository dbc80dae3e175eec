// The egress guard: which IP addresses a tool test run may connect to, checked after DNS resolution.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** The destination is not allowed by the egress policy; nothing was sent to it. */
export class EgressRefused extends Error {
  constructor(readonly host: string, readonly address: string) {
    super(`destination ${host} (${address}) is not allowed`);
    this.name = 'EgressRefused';
  }
}

export interface EgressPolicy {
  isAllowed(address: string): boolean;
}

const privateIPv4: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

const privateIPv6: [string, number][] = [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  // Local-use NAT64 (RFC 8215) places the IPv4 address at varying offsets, so it is refused as a whole.
  ['64:ff9b:1::', 48],
];

function blockList(ranges: [string, number][], type: 'ipv4' | 'ipv6'): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of ranges) list.addSubnet(network, prefix, type);
  return list;
}

const blockedIPv4 = blockList(privateIPv4, 'ipv4');
const blockedIPv6 = blockList(privateIPv6, 'ipv6');

/** The 16 bytes of a well-formed IPv6 address (zone already removed), including a trailing dotted quad. */
function ipv6Bytes(address: string): number[] {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const left = groups(head);
  const right = groups(tail);
  const hextets = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return hextets.flatMap((hextet) => [hextet >> 8, hextet & 0xff]);
}

const startsWith = (bytes: number[], prefix: number[]) => prefix.every((byte, index) => bytes[index] === byte);
const zeros = (count: number) => new Array<number>(count).fill(0);

/**
 * The IPv4 address an IPv6 address stands for: IPv4-mapped (::ffff:0:0/96), IPv4-translated
 * (::ffff:0:0:0/96), IPv4-compatible, NAT64 (64:ff9b::/96) or 6to4 (2002::/16, bytes 2-5).
 */
function embeddedIPv4(address: string): string | undefined {
  const bytes = ipv6Bytes(address);
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return bytes.slice(2, 6).join('.');
  const embeds =
    startsWith(bytes, [...zeros(10), 0xff, 0xff]) ||
    startsWith(bytes, [...zeros(8), 0xff, 0xff, 0x00, 0x00]) ||
    startsWith(bytes, zeros(12)) ||
    startsWith(bytes, [0x00, 0x64, 0xff, 0x9b, ...zeros(8)]);
  return embeds ? bytes.slice(12).join('.') : undefined;
}

function isPrivate(address: string): boolean {
  const bare = address.replace(/%.*$/, '');
  const version = isIP(bare);
  if (version === 4) return blockedIPv4.check(bare, 'ipv4');
  if (version === 6) {
    const ipv4 = embeddedIPv4(bare);
    return blockedIPv6.check(bare, 'ipv6') || (ipv4 !== undefined && blockedIPv4.check(ipv4, 'ipv4'));
  }
  // Not an IP address at all: nothing to connect to, so refuse rather than guess.
  return true;
}

export function egressPolicy(options: { allowPrivate: boolean }): EgressPolicy {
  return { isAllowed: (address) => options.allowPrivate || !isPrivate(address) };
}

/**
 * A `lookup` for http(s).request / net.connect that resolves every address of the host and refuses
 * the connection when any of them is not allowed, so the address connected to is always a checked one.
 */
export function guardedLookup(policy: EgressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '');
      const refused = addresses.find((entry) => !policy.isAllowed(entry.address));
      if (refused) return callback(new EgressRefused(hostname, refused.address), '');
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
      // Node asks for every address (happy eyeballs); each one handed back has been checked.
      if (options.all) return callback(null, addresses);
      callback(null, first.address, first.family);
    });
  };
}

/** The IP address a URL hostname literally names (brackets of IPv6 removed), or undefined for a DNS name. */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) !== 0 ? bare : undefined;
}
