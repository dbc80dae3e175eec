// The SIP OPTIONS request a trunk check sends (RFC 3261 11: Via with a z9hG4bK branch, Max-Forwards,
// From with a tag, To, Call-ID, CSeq, Contact, Content-Length 0) and the reading of what answers it.
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import type { SipTransport } from '@voice/contracts/telephony';

/** What identifies the request's transaction, to match its response, and its dialog, to send it again with credentials. */
export interface OptionsRequest {
  text: string;
  branch: string;
  callId: string;
  fromTag: string;
  cseq: number;
  /** The Request-URI, which a digest response covers. */
  uri: string;
}

/** A second request of the same Call-ID and From tag answers a challenge: the next CSeq and the credentials' header. */
export interface ChallengeAnswer {
  previous: OptionsRequest;
  /** e.g. "Authorization: Digest ...". */
  header: string;
}

export interface OptionsTarget {
  host: string;
  port: number;
  transport: SipTransport;
  secure: boolean;
  /** This end of the connection (or socket): Via and Contact name it. */
  localAddress: string;
  localPort: number;
}

const token = (bytes: number): string => randomBytes(bytes).toString('hex');

/** An IPv6 address in brackets, as hosts are written in SIP URIs and Via. */
const hostPart = (host: string): string => (isIP(host) === 6 ? `[${host}]` : host);

export function optionsRequest(target: OptionsTarget, answer?: ChallengeAnswer): OptionsRequest {
  const branch = `z9hG4bK${token(12)}`;
  const callId = answer?.previous.callId ?? `${token(16)}@${hostPart(target.localAddress)}`;
  const fromTag = answer?.previous.fromTag ?? token(8);
  const cseq = (answer?.previous.cseq ?? 0) + 1;
  const scheme = target.secure ? 'sips' : 'sip';
  const transportParam = target.transport === 'udp' ? '' : `;transport=${target.transport}`;
  const uri = `${scheme}:${hostPart(target.host)}:${target.port}${transportParam}`;
  const local = `${hostPart(target.localAddress)}:${target.localPort}`;
  const text = [
    `OPTIONS ${uri} SIP/2.0`,
    `Via: SIP/2.0/${target.transport.toUpperCase()} ${local};branch=${branch};rport`,
    'Max-Forwards: 70',
    `From: <${scheme}:check@${hostPart(target.localAddress)}>;tag=${fromTag}`,
    `To: <${uri}>`,
    `Call-ID: ${callId}`,
    `CSeq: ${cseq} OPTIONS`,
    `Contact: <${scheme}:check@${local}${transportParam}>`,
    ...(answer ? [answer.header] : []),
    'Accept: application/sdp',
    'User-Agent: voice-platform trunk check',
    'Content-Length: 0',
    '',
    '',
  ].join('\r\n');
  return { text, branch, callId, fromTag, cseq, uri };
}

export interface SipResponse {
  statusCode: number;
  reasonPhrase: string;
  /** Header names in lower case; a repeated header keeps its first value. */
  headers: Map<string, string>;
}

/** Compact forms (RFC 3261 7.3.3) of the headers a response is matched by. */
const compactNames: Record<string, string> = { i: 'call-id', v: 'via', l: 'content-length' };

/** The status line and headers of a SIP response's head (without the blank line), or undefined when it is not one. */
export function parseResponseHead(head: string): SipResponse | undefined {
  const [statusLine = '', ...lines] = head.split(/\r?\n/);
  const status = /^SIP\/2\.0 ([1-6]\d\d) ?(.*)$/.exec(statusLine);
  if (!status) return undefined;
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const raw = line.slice(0, colon).trim().toLowerCase();
    const name = compactNames[raw] ?? raw;
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return { statusCode: Number(status[1]), reasonPhrase: status[2]!.trim(), headers };
}

/** Whether the response belongs to the request's transaction (its Call-ID and top Via branch). */
export function answers(response: SipResponse, request: OptionsRequest): boolean {
  const via = response.headers.get('via') ?? '';
  return response.headers.get('call-id') === request.callId && via.includes(`branch=${request.branch}`);
}
