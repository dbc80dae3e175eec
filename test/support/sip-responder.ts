// A SIP peer on loopback for trunk checks: a real UDP and TCP server that parses each OPTIONS
// request (RFC 3261: request line, Via with a z9hG4bK branch, Max-Forwards, From with a tag, To,
// Call-ID, CSeq, Contact, Content-Length) and answers it with the status it is told, or never
// answers. What it received is kept for the test to read.
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
    headers.cseq !== '1 OPTIONS' && `CSeq ${headers.cseq}`,
    headers['content-length'] !== '0' && 'a body',
  ].filter(Boolean);
  if (problems.length > 0) throw new Error(`not a valid OPTIONS request: ${problems.join(', ')}`);
  return { transport, requestLine, headers };
}

function response(request: ReceivedOptions, status: number, reason: string): string {
  const h = request.headers;
  return [
    `SIP/2.0 ${status} ${reason}`,
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

/** Answers in order: the provisional one if asked, then the final one (if any). */
function answersTo(request: ReceivedOptions, behaviour: ResponderBehaviour): string[] {
  const answers = behaviour.provisional ? [response(request, 100, 'Trying')] : [];
  if (behaviour.answer) answers.push(response(request, behaviour.answer.status, behaviour.answer.reason));
  return answers;
}

/** A UDP and a TCP server on the same loopback port. */
export async function startSipResponder(behaviour: ResponderBehaviour): Promise<SipResponder> {
  const received: ReceivedOptions[] = [];
  const errors: unknown[] = [];
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
        for (const answer of answersTo(request, behaviour)) socket.write(answer);
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
      for (const answer of answersTo(request, behaviour)) udp.send(answer, from.port, from.address);
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
