// Sends a SIP OPTIONS request to a trunk over UDP, TCP or TLS and reads its final response (a Digest
// challenge is answered once with the trunk's credentials, and the answer to that is the result),
// with the egress guard deciding every address first: a name is resolved once, each of its
// addresses checked, and the request goes to a checked address. Failures are reported in the few
// words of network-failure.ts; the detail goes to the log only (never the credentials).
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { connect as connectTcp, isIP, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { allowedAddresses, EgressRefused, networkFailureMessages, networkFailureReasonOf, type EgressPolicy, type NetworkFailureReason } from '@voice/runtime/egress';
import type { Logger } from '@voice/runtime/logger';
import type { SipTransport } from '@voice/contracts/telephony';
import { digestAuthorization, parseDigestChallenge, type DigestCredentials } from './digest.js';
import { answers, optionsRequest, parseResponseHead, type OptionsRequest, type OptionsTarget, type SipResponse } from './options-message.js';

export interface SipCheckTarget {
  host: string;
  port: number;
  transport: SipTransport;
  secure: boolean;
  /** Answers a 401/407 Digest challenge once; without them a challenge is the result. */
  credentials?: DigestCredentials;
}

export type SipCheckResult =
  | { reachable: true; statusCode: number; reasonPhrase: string; roundTripMs: number }
  | { reachable: false; failure: NetworkFailureReason; message: string };

export interface SipOptionsCheckerSettings {
  policy: EgressPolicy;
  /** How long to wait for the final response, from the first byte sent. */
  timeoutMs: number;
  logger: Logger;
}

/** RFC 3261 17.1.2.2: over UDP a request is sent again after T1 (500 ms), doubling up to T2 (4 s). */
const t1Ms = 500;
const t2Ms = 4000;
/** A response longer than this is not a trunk's answer to OPTIONS. */
const maxResponseBytes = 64 * 1024;

class NoUsableResponse extends Error {
  readonly code = 'BAD_SIP_RESPONSE';
}

class CheckTimedOut extends Error {
  readonly code = 'ETIMEDOUT';
}

/**
 * The request answering a final response's Digest challenge with the credentials, or undefined when
 * the response is the result (not a challenge, no credentials, or the challenge was answered already).
 */
function answerToChallenge(response: SipResponse, request: OptionsRequest, target: SipCheckTarget, local: { address: string; port: number }): OptionsRequest | undefined {
  if ((response.statusCode !== 401 && response.statusCode !== 407) || !target.credentials || request.cseq > 1) return undefined;
  const challenge = parseDigestChallenge(response.headers.get(response.statusCode === 401 ? 'www-authenticate' : 'proxy-authenticate') ?? '');
  if (!challenge) return undefined;
  const header = digestAuthorization(response.statusCode, challenge, target.credentials, 'OPTIONS', request.uri);
  return optionsRequest({ ...optionsTargetOf(target), localAddress: local.address, localPort: local.port }, { previous: request, header });
}

const optionsTargetOf = (target: SipCheckTarget) => ({ host: target.host, port: target.port, transport: target.transport, secure: target.secure });

export class SipOptionsChecker {
  constructor(private readonly settings: SipOptionsCheckerSettings) {}

  /** Throws EgressRefused (nothing sent) when an address of the host is not allowed. */
  async check(target: SipCheckTarget): Promise<SipCheckResult> {
    const address = await this.resolve(target.host);
    if (typeof address !== 'string') return address;
    const started = performance.now();
    try {
      const response = target.transport === 'udp' ? await this.overUdp(target, address) : await this.overStream(target, address);
      return { reachable: true, statusCode: response.statusCode, reasonPhrase: response.reasonPhrase, roundTripMs: Math.round(performance.now() - started) };
    } catch (error) {
      const failure = error instanceof NoUsableResponse ? 'bad_response' : networkFailureReasonOf(error);
      this.settings.logger.info('SIP trunk check failed', { failure, error });
      return { reachable: false, failure, message: networkFailureMessages[failure] };
    }
  }

  /** The address to send to: the literal one, or the first of the name's, once every one passed the guard. */
  private async resolve(host: string): Promise<string | SipCheckResult> {
    try {
      return (await allowedAddresses(host, this.settings.policy))[0]!.address;
    } catch (error) {
      if (error instanceof EgressRefused) throw error;
      this.settings.logger.info('SIP trunk check failed', { failure: 'dns_error', error });
      return { reachable: false, failure: 'dns_error', message: networkFailureMessages.dns_error };
    }
  }

  private overUdp(target: SipCheckTarget, address: string): Promise<SipResponse> {
    return new Promise<SipResponse>((resolve, reject) => {
      const socket: UdpSocket = createSocket(isIP(address) === 6 ? 'udp6' : 'udp4');
      let request: OptionsRequest | undefined;
      let retransmit: NodeJS.Timeout | undefined;
      const finish = (error: Error | undefined, response?: SipResponse) => {
        clearTimeout(deadline);
        clearTimeout(retransmit);
        socket.close();
        if (error) reject(error);
        else resolve(response!);
      };
      const deadline = setTimeout(() => finish(new CheckTimedOut('no SIP response in time')), this.settings.timeoutMs);
      socket.on('error', (error) => finish(error));
      /** Sends the request, and again after T1, 2·T1, ... (up to T2) until its final answer. */
      const transmit = (next: OptionsRequest) => {
        clearTimeout(retransmit);
        request = next;
        const bytes = Buffer.from(next.text, 'utf8');
        const send = (interval: number) => {
          socket.send(bytes, (error) => error && finish(error));
          retransmit = setTimeout(() => send(Math.min(interval * 2, t2Ms)), interval);
        };
        send(t1Ms);
      };
      socket.on('message', (datagram) => {
        const head = datagram.toString('utf8').split(/\r?\n\r?\n/, 1)[0] ?? '';
        const response = parseResponseHead(head);
        // Anything else arriving on the port, and provisional answers, are not the final answer.
        if (!request || !response || !answers(response, request) || response.statusCode < 200) return;
        const local = socket.address();
        const again = answerToChallenge(response, request, target, local);
        if (again) transmit(again);
        else finish(undefined, response);
      });
      socket.connect(target.port, address, () => {
        const local = socket.address();
        transmit(optionsRequest(this.optionsTarget(target, local.address, local.port)));
      });
    });
  }

  private overStream(target: SipCheckTarget, address: string): Promise<SipResponse> {
    return new Promise<SipResponse>((resolve, reject) => {
      const socket: Socket =
        target.transport === 'tls'
          ? connectTls({ host: address, port: target.port, servername: isIP(target.host) === 0 ? target.host : undefined })
          : connectTcp({ host: address, port: target.port });
      let request: OptionsRequest | undefined;
      let received = Buffer.alloc(0);
      const finish = (error: Error | undefined, response?: SipResponse) => {
        clearTimeout(deadline);
        socket.destroy();
        if (error) reject(error);
        else resolve(response!);
      };
      const deadline = setTimeout(() => finish(new CheckTimedOut('no SIP response in time')), this.settings.timeoutMs);
      socket.on('error', (error) => finish(error));
      socket.on('close', () => finish(new NoUsableResponse('the connection closed before a final SIP response')));
      socket.once(target.transport === 'tls' ? 'secureConnect' : 'connect', () => {
        request = optionsRequest(this.optionsTarget(target, socket.localAddress ?? address, socket.localPort ?? 0));
        socket.write(request.text);
      });
      socket.on('data', (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        for (;;) {
          const end = received.indexOf('\r\n\r\n');
          if (end < 0) break;
          const response = parseResponseHead(received.subarray(0, end).toString('utf8'));
          if (!response) return finish(new NoUsableResponse('the trunk answered something other than SIP'));
          const bodyLength = Number(response.headers.get('content-length') ?? '0');
          if (!Number.isInteger(bodyLength) || bodyLength < 0) return finish(new NoUsableResponse('the SIP response has an invalid Content-Length'));
          if (received.length < end + 4 + bodyLength) break;
          received = received.subarray(end + 4 + bodyLength);
          if (!request || !answers(response, request) || response.statusCode < 200) continue;
          const again = answerToChallenge(response, request, target, { address: socket.localAddress ?? address, port: socket.localPort ?? 0 });
          if (!again) return finish(undefined, response);
          request = again;
          socket.write(again.text);
        }
        if (received.length > maxResponseBytes) finish(new NoUsableResponse('the SIP response is too large'));
      });
    });
  }

  private optionsTarget(target: SipCheckTarget, localAddress: string, localPort: number): OptionsTarget {
    return { ...optionsTargetOf(target), localAddress, localPort };
  }
}
