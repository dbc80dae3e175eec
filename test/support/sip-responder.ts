// A SIP peer on loopback for trunk checks: a real UDP and TCP server that parses each OPTIONS
// request (RFC 3261: request line, Via with a z9hG4bK branch, Max-Forwards, From with a tag, To,
// Call-ID, CSeq, Contact, Content-Length) and answers it with the status it is told, or never
// answers; it may ask for Digest authentication first (RFC 2617, checked here on its own). What it
// received is kept for the test to read.
import { createHash, randomBytes } from 'node:crypto';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, type Server, type Socket } from 'node:net';

export interface ReceivedOptions {
  transport: 'udp' | 'tcp';
  requestLine: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
}

export interface SipResponder {
  port: number;
  received: ReceivedOptions[];
  close(): Promise<void>;
}

export interface ResponderBehaviour {
  /** The status line's code and phrase; none: the responder never answers. */
  answer?: { status: number; reason: string };
  /** Sent before the final answer (a provisional response the check must wait past). */
  provisional?: boolean;
  /** UDP: how many requests to ignore before answering (the check must send again). */
  dropFirst?: number;
  /** Challenges a request without valid credentials with 401 (or 407 as a proxy) before answering. */
  digest?: { username: string; password: string; proxy?: boolean };
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const realm = 'responder.test';

/** Whether the request's Authorization answers the nonce with the expected credentials (qop=auth). */
function authorized(request: ReceivedOptions, digest: NonNullable<ResponderBehaviour['digest']>, nonce: string): boolean {
  const header = request.headers[digest.proxy ? 'proxy-authorization' : 'authorization'];
  if (!header?.startsWith('Digest ')) return false;
  const fields = Object.fromEntries([...header.slice(7).matchAll(/(\w+)="?([^",]*)"?/g)].map((match) => [match[1], match[2]]));
  const method = request.requestLine.split(' ')[0];
  const expected = md5(`${md5(`${digest.username}:${realm}:${digest.password}`)}:${nonce}:${fields.nc}:${fields.cnonce}:auth:${md5(`${method}:${fields.uri}`)}`);
  return fields.username === digest.username && fields.realm === realm && fields.nonce === nonce && fields.qop === 'auth' && fields.response === expected;
}

const mandatory = ['via', 'max-forwards', 'from', 'to', 'call-id', 'cseq', 'contact', 'content-length'];

function parseOptions(text: string, transport: 'udp' | 'tcp'): ReceivedOptions {
  const [requestLine = '', ...lines] = text.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const problems = [
    !/^OPTIONS sips?:\S+ SIP\/2\.0$/.test(requestLine) && `request line ${requestLine}`,
    ...mandatory.filter((name) => headers[name] === undefined).map((name) => `no ${name}`),
    !/;branch=z9hG4bK/.test(headers.via ?? '') && 'Via without a z9hG4bK branch',
    !/;tag=/.test(headers.from ?? '') && 'From without a tag',
    !/^[12] OPTIONS$/.test(headers.cseq ?? '') && `CSeq ${headers.cseq}`,
    headers['content-length'] !== '0' && 'a body',
  ].filter(Boolean);
  if (problems.length > 0) throw new Error(`not a valid OPTIONS request: ${problems.join(', ')}`);
  return { transport, requestLine, headers };
}

function response(request: ReceivedOptions, status: number, reason: string, extra: string[] = []): string {
  const h = request.headers;
  return [
    `SIP/2.0 ${status} ${reason}`,
    ...extra,
    `Via: ${h.via}`,
    `From: ${h.from}`,
    `To: ${h.to};tag=responder`,
    `Call-ID: ${h['call-id']}`,
    `CSeq: ${h.cseq}`,
    'Allow: INVITE, ACK, CANCEL, BYE, OPTIONS',
    'Content-Length: 0',
    '',
    '',
  ].join('\r\n');
}

/** Answers in order: the provisional one if asked, a challenge if credentials are asked and missing, else the final one (if any). */
function answersTo(request: ReceivedOptions, behaviour: ResponderBehaviour, nonce: string): string[] {
  const answers = behaviour.provisional ? [response(request, 100, 'Trying')] : [];
  const { digest } = behaviour;
  if (digest && !authorized(request, digest, nonce)) {
    const challenge = `${digest.proxy ? 'Proxy-Authenticate' : 'WWW-Authenticate'}: Digest realm="${realm}", nonce="${nonce}", qop="auth", algorithm=MD5, opaque="o1"`;
    return [...answers, digest.proxy ? response(request, 407, 'Proxy Authentication Required', [challenge]) : response(request, 401, 'Unauthorized', [challenge])];
  }
  if (behaviour.answer) answers.push(response(request, behaviour.answer.status, behaviour.answer.reason));
  return answers;
}

/** A UDP and a TCP server on the same loopback port. */
export async function startSipResponder(behaviour: ResponderBehaviour): Promise<SipResponder> {
  const received: ReceivedOptions[] = [];
  const errors: unknown[] = [];
  const nonce = randomBytes(8).toString('hex');
  const tcp: Server = createServer((socket: Socket) => {
    let buffer = '';
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      try {
        const request = parseOptions(buffer.slice(0, end), 'tcp');
        buffer = buffer.slice(end + 4);
        received.push(request);
        for (const answer of answersTo(request, behaviour, nonce)) socket.write(answer);
      } catch (error) {
        errors.push(error);
        socket.destroy();
      }
    });
  });
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  const port = (tcp.address() as { port: number }).port;

  const udp: UdpSocket = createSocket('udp4');
  let dropped = 0;
  udp.on('message', (datagram, from) => {
    try {
      const request = parseOptions(datagram.toString('utf8').split('\r\n\r\n')[0]!, 'udp');
      received.push(request);
      if (dropped < (behaviour.dropFirst ?? 0)) {
        dropped++;
        return;
      }
      for (const answer of answersTo(request, behaviour, nonce)) udp.send(answer, from.port, from.address);
    } catch (error) {
      errors.push(error);
    }
  });
  await new Promise<void>((resolve) => udp.bind(port, '127.0.0.1', resolve));

  return {
    port,
    received,
    close: async () => {
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
      if (errors.length > 0) throw new Error(`the SIP responder received what it could not read: ${String(errors[0])}`);
    },
  };
}
