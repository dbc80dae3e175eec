// The IANA IPv4 and IPv6 Special-Purpose Address Registries (iana-ipv4-special-registry,
// iana-ipv6-special-registry, as of 2025) as one table: the egress guard's rule. The most specific
// block that holds an address decides whether it is globally reachable; an address in no block is
// ordinary global unicast. Three rows come from the address-space registries instead, because the
// special-purpose ones leave them out: IPv4 multicast, and IPv6 outside global unicast (2000::/3),
// which covers the deprecated site-local fec0::/10, multicast and the unassigned space.
//
// "N/A" in the registry (6to4, Teredo, the deprecated 6to4 relay anycast) counts as not reachable,
// except where the block embeds an IPv4 address, which then decides instead.

export interface SpecialPurposeBlock {
  block: string;
  name: string;
  globallyReachable: boolean;
  /** Where the block carries an IPv4 address, the IPv4 address's verdict applies as well. */
  embedsIPv4?: 'last-32-bits' | '6to4';
}

export const specialPurposeBlocks: readonly SpecialPurposeBlock[] = [
  // IPv4 (RFC 6890 and successors)
  { block: '0.0.0.0/8', name: '"This network"', globallyReachable: false },
  { block: '0.0.0.0/32', name: '"This host on this network"', globallyReachable: false },
  { block: '10.0.0.0/8', name: 'Private-Use', globallyReachable: false },
  { block: '100.64.0.0/10', name: 'Shared Address Space', globallyReachable: false },
  { block: '127.0.0.0/8', name: 'Loopback', globallyReachable: false },
  { block: '169.254.0.0/16', name: 'Link Local', globallyReachable: false },
  { block: '172.16.0.0/12', name: 'Private-Use', globallyReachable: false },
  { block: '192.0.0.0/24', name: 'IETF Protocol Assignments', globallyReachable: false },
  { block: '192.0.0.0/29', name: 'IPv4 Service Continuity Prefix', globallyReachable: false },
  { block: '192.0.0.8/32', name: 'IPv4 dummy address', globallyReachable: false },
  { block: '192.0.0.9/32', name: 'Port Control Protocol Anycast', globallyReachable: true },
  { block: '192.0.0.10/32', name: 'Traversal Using Relays around NAT Anycast', globallyReachable: true },
  { block: '192.0.0.170/32', name: 'NAT64/DNS64 Discovery', globallyReachable: false },
  { block: '192.0.0.171/32', name: 'NAT64/DNS64 Discovery', globallyReachable: false },
  { block: '192.0.2.0/24', name: 'Documentation (TEST-NET-1)', globallyReachable: false },
  { block: '192.31.196.0/24', name: 'AS112-v4', globallyReachable: true },
  { block: '192.52.193.0/24', name: 'AMT', globallyReachable: true },
  { block: '192.88.99.0/24', name: 'Deprecated (6to4 Relay Anycast)', globallyReachable: false },
  { block: '192.168.0.0/16', name: 'Private-Use', globallyReachable: false },
  { block: '192.175.48.0/24', name: 'Direct Delegation AS112 Service', globallyReachable: true },
  { block: '198.18.0.0/15', name: 'Benchmarking', globallyReachable: false },
  { block: '198.51.100.0/24', name: 'Documentation (TEST-NET-2)', globallyReachable: false },
  { block: '203.0.113.0/24', name: 'Documentation (TEST-NET-3)', globallyReachable: false },
  { block: '224.0.0.0/4', name: 'Multicast (IPv4 Multicast Address Space Registry)', globallyReachable: false },
  { block: '240.0.0.0/4', name: 'Reserved', globallyReachable: false },
  { block: '255.255.255.255/32', name: 'Limited Broadcast', globallyReachable: false },

  // IPv6 (RFC 6890 and successors)
  { block: '::/0', name: 'Outside global unicast (IPv6 Address Space Registry)', globallyReachable: false },
  { block: '2000::/3', name: 'Global Unicast (IPv6 Address Space Registry)', globallyReachable: true },
  { block: '::1/128', name: 'Loopback Address', globallyReachable: false },
  { block: '::/128', name: 'Unspecified Address', globallyReachable: false },
  { block: '::ffff:0:0/96', name: 'IPv4-mapped Address', globallyReachable: false },
  { block: '64:ff9b::/96', name: 'IPv4-IPv6 Translat.', globallyReachable: true, embedsIPv4: 'last-32-bits' },
  { block: '64:ff9b:1::/48', name: 'IPv4-IPv6 Translat.', globallyReachable: false },
  { block: '100::/64', name: 'Discard-Only Address Block', globallyReachable: false },
  { block: '100:0:0:1::/64', name: 'Dummy IPv6 Prefix', globallyReachable: false },
  { block: '2001::/23', name: 'IETF Protocol Assignments', globallyReachable: false },
  { block: '2001::/32', name: 'TEREDO', globallyReachable: false },
  { block: '2001:1::1/128', name: 'Port Control Protocol Anycast', globallyReachable: true },
  { block: '2001:1::2/128', name: 'Traversal Using Relays around NAT Anycast', globallyReachable: true },
  { block: '2001:1::3/128', name: 'DNS-SD Service Registration Protocol Anycast', globallyReachable: true },
  { block: '2001:2::/48', name: 'Benchmarking', globallyReachable: false },
  { block: '2001:3::/32', name: 'AMT', globallyReachable: true },
  { block: '2001:4:112::/48', name: 'AS112-v6', globallyReachable: true },
  { block: '2001:10::/28', name: 'Deprecated (previously ORCHID)', globallyReachable: false },
  { block: '2001:20::/28', name: 'ORCHIDv2', globallyReachable: true },
  { block: '2001:30::/28', name: 'Drone Remote ID Protocol Entity Tags (DETs) Prefix', globallyReachable: true },
  { block: '2001:db8::/32', name: 'Documentation', globallyReachable: false },
  { block: '2002::/16', name: '6to4', globallyReachable: true, embedsIPv4: '6to4' },
  { block: '2620:4f:8000::/48', name: 'Direct Delegation AS112 Service', globallyReachable: true },
  { block: '3fff::/20', name: 'Documentation', globallyReachable: false },
  { block: '5f00::/16', name: 'Segment Routing (SRv6) SIDs', globallyReachable: false },
  { block: 'fc00::/7', name: 'Unique-Local', globallyReachable: false },
  { block: 'fe80::/10', name: 'Link-Local Unicast', globallyReachable: false },
];
