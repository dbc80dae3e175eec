// One call's media stream: waits for `start`, takes the call id and session token from its
// customParameters, plays the conversation, and hangs up (closes the socket) once the session has
// ended. The carrier's `stop`, or the socket closing, tells the conversation the caller is gone.
import type { Logger } from '@voice/runtime/logger';
import type WebSocket from 'ws';
import { playConversation } from '../conversation/conversation.js';
import { SessionReports, type CallOptions, type SessionClient } from '../conversation/session-reports.js';
import { readStreamMessage } from './stream-protocol.js';

export interface MediaSessionDeps {
  client: SessionClient;
  callOptions: CallOptions;
  turnGapMs: number;
  now: () => number;
  logger: Logger;
  /** How long a stream may stay open before its `start`; default 10 s. */
  startTimeoutMs?: number;
}

/** WebSocket close codes: normal, policy violation (a stream that is not a call's), internal error. */
const closeCodes = { normal: 1000, policy: 1008, error: 1011 } as const;

export function acceptMediaStream(socket: WebSocket, deps: MediaSessionDeps): void {
  const stopped = new AbortController();
  let started = false;
  const hangUp = (code: number, reason: string) => {
    if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) socket.close(code, reason);
  };
  const startTimer = setTimeout(() => hangUp(closeCodes.policy, 'no start message'), deps.startTimeoutMs ?? 10_000);
  startTimer.unref();
  socket.on('close', () => {
    clearTimeout(startTimer);
    stopped.abort();
  });
  socket.on('message', (data) => {
    const message = readStreamMessage(String(data));
    if (message.kind === 'stop') return stopped.abort();
    if (message.kind === 'malformed') return hangUp(closeCodes.policy, 'malformed message');
    if (message.kind !== 'start' || started) return;
    started = true;
    clearTimeout(startTimer);
    const callId = message.customParameters.call_id;
    const sessionToken = message.customParameters.session_token;
    if (!callId || !sessionToken) return hangUp(closeCodes.policy, 'the stream names no call');
    const log = deps.logger.child({ call_id: callId, call_sid: message.callSid });
    const reports = new SessionReports(deps.client, { callId, sessionToken }, deps.callOptions);
    playConversation(reports, { answeredBy: message.customParameters.answered_by, startedAtMs: deps.now(), stopped: stopped.signal, turnGapMs: deps.turnGapMs, now: deps.now })
      .then((reason) => {
        log.info('sandbox conversation ended', { reason });
        hangUp(closeCodes.normal, 'conversation ended');
      })
      .catch((error: unknown) => {
        log.warn('sandbox conversation failed', { error });
        hangUp(closeCodes.error, 'conversation failed');
      });
  });
}
