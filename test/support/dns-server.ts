// A real DNS server on 127.0.0.1, UDP and TCP on one port, answering from records a test sets
// the way a recursive resolver would (CNAME chains followed, NXDOMAIN versus NODATA).
import dgram from 'node:dgram';
import net from 'node:net';
import * as dnsPacket from 'dns-packet';

export type DnsRecordType = 'TXT' | 'CNAME' | 'A';

export interface DnsServer {
  /** "127.0.0.1:<port>", as VOICE_DNS_SERVERS takes it. */
  address: string;
  /** Replaces every record of this name and type (names case-insensitive, without trailing dot). */
  set(name: string, type: DnsRecordType, values: string[]): void;
  /** Removes every record of this name (all types). */
  remove(name: string): void;
  /** Questions received so far, as "name TYPE". */
  queries: string[];
  close(): Promise<void>;
}

const NOERROR = 0;
const NXDOMAIN = 3;
const MAX_CNAME_HOPS = 8;
const TXT_CHUNK_BYTES = 255;
const PLAIN_UDP_LIMIT = 512;

/** Lower-cased name -> record type -> values. */
type Zone = Map<string, Map<string, string[]>>;

const normalize = (name: string) => name.toLowerCase().replace(/\.$/, '');

// dns-packet writes each TXT string's length into one byte without checking it, so values are
// split here into <=255-byte character-strings of a single record, which resolvers join again.
function txtChunks(value: string): Buffer[] {
  const bytes = Buffer.from(value);
  const chunks: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += TXT_CHUNK_BYTES) chunks.push(bytes.subarray(start, start + TXT_CHUNK_BYTES));
  return chunks.length > 0 ? chunks : [Buffer.alloc(0)];
}

function toAnswer(owner: string, type: string, value: string): dnsPacket.Answer {
  // TTL 0: no resolver may keep an answer that a later set() or remove() changes.
  const common = { name: owner, ttl: 0, class: 'IN' as const };
  return type === 'TXT' ? { ...common, type: 'TXT', data: txtChunks(value) } : { ...common, type: type as 'A' | 'CNAME', data: value };
}

/** Follows CNAMEs like a recursive server; the name the chain ends at decides NXDOMAIN. */
function lookUp(zone: Zone, question: dnsPacket.Question): { answers: dnsPacket.Answer[]; nameExists: boolean } {
  const answers: dnsPacket.Answer[] = [];
  let owner = question.name;
  for (let hop = 0; hop <= MAX_CNAME_HOPS; hop++) {
    const records = zone.get(normalize(owner));
    if (!records) return { answers, nameExists: false };
    const values = records.get(question.type);
    if (values) {
      answers.push(...values.map((value) => toAnswer(owner, question.type, value)));
      return { answers, nameExists: true };
    }
    const target = records.get('CNAME')?.[0];
    if (target === undefined) return { answers, nameExists: true };
    answers.push(toAnswer(owner, 'CNAME', target));
    owner = target;
  }
  return { answers, nameExists: true };
}

function udpSizeLimit(query: dnsPacket.DecodedPacket): number {
  const edns = query.additionals?.find((record): record is dnsPacket.OptAnswer => record.type === 'OPT');
  return Math.max(PLAIN_UDP_LIMIT, edns?.udpPayloadSize ?? 0);
}

/** The encoded reply, or undefined for anything that is not a well-formed query. */
function reply(zone: Zone, queries: string[], message: Buffer, transport: 'udp' | 'tcp'): Buffer | undefined {
  let query: dnsPacket.DecodedPacket;
  try {
    query = dnsPacket.decode(message);
  } catch {
    return undefined;
  }
  const questions = query.questions ?? [];
  if (query.type !== 'query' || questions.length === 0) return undefined;

  const results = questions.map((question) => {
    queries.push(`${question.name} ${question.type}`);
    return lookUp(zone, question);
  });
  const rcode = results.some((result) => result.nameExists) ? NOERROR : NXDOMAIN;
  const response: dnsPacket.Packet = {
    type: 'response',
    id: query.id ?? 0,
    flags: dnsPacket.AUTHORITATIVE_ANSWER | dnsPacket.RECURSION_AVAILABLE | ((query.flags ?? 0) & dnsPacket.RECURSION_DESIRED) | rcode,
    questions,
    answers: results.flatMap((result) => result.answers),
  };
  try {
    const encoded = dnsPacket.encode(response);
    if (transport === 'tcp' || encoded.length <= udpSizeLimit(query)) return encoded;
    // Too big for UDP: an empty truncated answer makes the client ask again over TCP.
    return dnsPacket.encode({ ...response, flags: (response.flags ?? 0) | dnsPacket.TRUNCATED_RESPONSE, answers: [] });
  } catch {
    return undefined;
  }
}

/** TCP carries DNS messages with a 2-byte length prefix, several per connection. */
function serveTcp(socket: net.Socket, answer: (message: Buffer) => Buffer | undefined): void {
  let pending = Buffer.alloc(0);
  socket.on('error', () => socket.destroy());
  socket.on('data', (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0)) {
      const message = pending.subarray(2, 2 + pending.readUInt16BE(0));
      pending = pending.subarray(2 + message.length);
      const encoded = answer(message);
      if (!encoded) continue;
      const length = Buffer.alloc(2);
      length.writeUInt16BE(encoded.length);
      socket.write(Buffer.concat([length, encoded]));
    }
  });
}

async function listenOnOnePort(tcp: net.Server): Promise<{ udp: dgram.Socket; port: number }> {
  for (let attempt = 1; ; attempt++) {
    const udp = dgram.createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      udp.once('error', reject);
      udp.bind(0, '127.0.0.1', () => {
        udp.off('error', reject);
        resolve();
      });
    });
    const port = udp.address().port;
    try {
      await new Promise<void>((resolve, reject) => {
        tcp.once('error', reject);
        tcp.listen(port, '127.0.0.1', () => {
          tcp.off('error', reject);
          resolve();
        });
      });
      return { udp, port };
    } catch (error) {
      // Another process holds this port for TCP only; a fresh UDP port will do.
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === 5) throw error;
      await new Promise<void>((resolve) => udp.close(() => resolve()));
    }
  }
}

export async function startDnsServer(): Promise<DnsServer> {
  const zone: Zone = new Map();
  const queries: string[] = [];
  const sockets = new Set<net.Socket>();

  const tcp = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    serveTcp(socket, (message) => reply(zone, queries, message, 'tcp'));
  });
  const { udp, port } = await listenOnOnePort(tcp);
  udp.on('message', (message, sender) => {
    const encoded = reply(zone, queries, message, 'udp');
    if (encoded) udp.send(encoded, sender.port, sender.address);
  });
  udp.on('error', () => undefined);

  return {
    address: `127.0.0.1:${port}`,
    queries,
    set(name, type, values) {
      if (type === 'A' && !values.every((value) => net.isIPv4(value))) throw new Error(`not IPv4 addresses: ${values.join(', ')}`);
      const records = zone.get(normalize(name)) ?? new Map<string, string[]>();
      if (values.length > 0) records.set(type, [...values]);
      else records.delete(type);
      if (records.size > 0) zone.set(normalize(name), records);
      else zone.delete(normalize(name));
    },
    remove(name) {
      zone.delete(normalize(name));
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all([
        new Promise<void>((resolve) => tcp.close(() => resolve())),
        new Promise<void>((resolve) => udp.close(() => resolve())),
      ]);
    },
  };
}
