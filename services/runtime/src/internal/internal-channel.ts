// How one part of the platform reaches a service: through the service's handlers in this process
// (the single-process mode's default), or over HTTP/2 to its address (separate processes, and the
// single-process mode with VOICE_INTERNAL_TRANSPORT=http2). Callers see the same Connect client
// either way; VOICE_INTERNAL_TRANSPORT is read here, once per process start.
import type { Transport } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { ConfigError, readEnum, type Env } from '../config/env.js';
import type { InProcessServices } from './in-process-services.js';
import { internalSessionManager } from './internal-sessions.js';

export const internalTransportKinds = ['in-process', 'http2'] as const;
export type InternalTransportKind = (typeof internalTransportKinds)[number];

const variable = 'VOICE_INTERNAL_TRANSPORT';

/**
 * VOICE_INTERNAL_TRANSPORT for a process running every part (`in-process` by default) or one part
 * of the platform (`http2`, the only way to reach the others; `in-process` stops the start).
 */
export function readInternalTransport(env: Env, runs: 'every-part' | 'one-part'): InternalTransportKind {
  const kind = readEnum(env, variable, runs === 'every-part' ? 'in-process' : 'http2', internalTransportKinds);
  if (kind === 'in-process' && runs === 'one-part') {
    throw new ConfigError(variable, 'is in-process, but here the parts of the platform run as processes of their own and reach each other over http2 only (set http2 or leave it unset)');
  }
  return kind;
}

export interface InternalChannel {
  transport: Transport;
  /** Ends the HTTP/2 sessions (nothing to end in process). */
  close(): void;
}

export interface InternalTarget {
  /** The service's name as its server registers it (`identity`, `platform-users`, …). */
  name: string;
  /** Its HTTP/2 address, used when no in-process services are given. */
  url: string;
  /** Deadline of a call that sets none. */
  defaultTimeoutMs?: number;
}

/** A channel to `target`: in process when `local` is given, else binary Connect over one HTTP/2 session. */
export function openInternalChannel(target: InternalTarget, local?: InProcessServices): InternalChannel {
  if (local) return { transport: local.transport(target.name, { defaultTimeoutMs: target.defaultTimeoutMs }), close: () => {} };
  const sessionManager = internalSessionManager(target.url);
  return {
    transport: createConnectTransport({ baseUrl: target.url, httpVersion: '2', useBinaryFormat: true, defaultTimeoutMs: target.defaultTimeoutMs, sessionManager }),
    close: () => sessionManager.abort(),
  };
}
