// The egress guard: which IP addresses an outbound request (tool test runs, OAuth client metadata,
// carriers) may connect to, checked after DNS resolution against the IANA special-purpose registries.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { networkInterfaces } from 'node:os';
import { specialPurposeBlocks, type SpecialPurposeBlock } from './special-purpose-addresses.js';

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

/** The 4 or 16 bytes of an IP address (zone already removed), or undefined for anything else. */
function addressBytes(address: string): number[] | undefined {
  const version = isIP(address);
  if (version === 4) return address.split('.').map(Number);
  if (version === 6) return ipv6Bytes(address);
  return undefined;
}

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

interface ParsedBlock extends SpecialPurposeBlock {
  bytes: number[];
  prefix: number;
}

const parsedBlocks: ParsedBlock[] = specialPurposeBlocks.map((entry) => {
  const [network = '', prefix = ''] = entry.block.split('/');
  return { ...entry, bytes: addressBytes(network)!, prefix: Number(prefix) };
});

function contains(block: ParsedBlock, bytes: number[]): boolean {
  if (block.bytes.length !== bytes.length) return false;
  for (let bit = 0; bit < block.prefix; bit += 8) {
    const mask = block.prefix - bit >= 8 ? 0xff : (0xff << (8 - (block.prefix - bit))) & 0xff;
    if ((block.bytes[bit / 8]! & mask) !== (bytes[bit / 8]! & mask)) return false;
  }
  return true;
}

/** The most specific registry block holding the address, if any. */
function blockOf(bytes: number[]): ParsedBlock | undefined {
  let found: ParsedBlock | undefined;
  for (const block of parsedBlocks) if (contains(block, bytes) && (!found || block.prefix > found.prefix)) found = block;
  return found;
}

function isGloballyReachableBytes(bytes: number[]): boolean {
  const block = blockOf(bytes);
  if (!block) return true;
  if (!block.globallyReachable) return false;
  if (block.embedsIPv4 === 'last-32-bits') return isGloballyReachableBytes(bytes.slice(12));
  if (block.embedsIPv4 === '6to4') return isGloballyReachableBytes(bytes.slice(2, 6));
  return true;
}

/** Whether the IANA special-purpose registries call the address globally reachable; anything not an IP address is not. */
export function isGloballyReachable(address: string): boolean {
  const bytes = addressBytes(address.replace(/%.*$/, ''));
  return bytes !== undefined && isGloballyReachableBytes(bytes);
}

/** The addresses of this host's own network interfaces, as byte strings. */
function interfaceAddresses(): Set<string> {
  const own = new Set<string>();
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) {
      const bytes = addressBytes(entry.address.replace(/%.*$/, ''));
      if (bytes) own.add(bytes.join('.'));
    }
  }
  return own;
}

export interface EgressPolicyOptions {
  /** VOICE_EGRESS_ALLOW_PRIVATE: every address passes (tests, closed networks). */
  allowPrivate: boolean;
  /** The host's own addresses, asked at each check (interfaces come and go); its network interfaces by default. */
  ownAddresses?: () => Iterable<string>;
}

/**
 * Only globally reachable addresses pass, and never one of the host's own (a public address of this
 * machine would reach services listening on all interfaces), unless private egress is allowed.
 */
export function egressPolicy(options: EgressPolicyOptions): EgressPolicy {
  if (options.allowPrivate) return { isAllowed: () => true };
  const own = options.ownAddresses
    ? () => new Set([...options.ownAddresses!()].map((address) => addressBytes(address.replace(/%.*$/, ''))?.join('.')))
    : interfaceAddresses;
  return {
    isAllowed: (address) => {
      const bytes = addressBytes(address.replace(/%.*$/, ''));
      return bytes !== undefined && isGloballyReachableBytes(bytes) && !own().has(bytes.join('.'));
    },
  };
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

/**
 * Every address a host resolves to (a literal address is its own), once each passed the policy:
 * EgressRefused when one does not. A name that does not resolve rejects as the resolver reported it.
 */
export async function allowedAddresses(host: string, policy: EgressPolicy): Promise<LookupAddress[]> {
  const literal = literalAddress(host);
  const addresses =
    literal !== undefined
      ? [{ address: literal, family: isIP(literal) }]
      : await new Promise<LookupAddress[]>((resolve, reject) => dnsLookup(host, { all: true }, (error, found) => (error ? reject(error) : resolve(found))));
  const refused = addresses.find((entry) => !policy.isAllowed(entry.address));
  if (refused) throw new EgressRefused(host, refused.address);
  return addresses;
}

/**
 * Checks, before a request is accepted, that a URL's host resolves only to addresses the policy
 * allows: EgressRefused when one is not. Work that fetches the URL later still goes through
 * guardedLookup (DNS may answer differently then); this lets a refusal be the request's answer.
 * A name that does not resolve now passes: the later fetch reports it.
 */
export async function checkDestination(url: string, policy: EgressPolicy): Promise<void> {
  await allowedAddresses(new URL(url).hostname, policy).catch((error: unknown) => {
    if (error instanceof EgressRefused) throw error;
  });
}
