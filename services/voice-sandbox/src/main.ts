// Starts the sandbox voice runtime: the media stream endpoint carriers connect answered calls to,
// playing each call's conversation through the calls service's CallSessionService; stops cleanly on
// SIGTERM.
import { createClient } from '@connectrpc/connect';
import { callHeaders, CallerSigner, type Caller } from '@voice/runtime/caller';
import type { Env } from '@voice/runtime/config';
import { openInternalChannel, type InProcessServices } from '@voice/runtime/internal';
import { createLogger, type Logger } from '@voice/runtime/logger';
import { runProcess } from '@voice/runtime/process';
import { CallSessionService } from '@voice/proto/voice/calls/v1/call_sessions';
import { readVoiceSandboxConfig } from './config.js';
import { startMediaServer, type RunningMediaServer } from './server.js';

export interface VoiceSandboxOptions {
  logger?: Logger;
  /** The process's in-process services (single-process mode): the calls service is called there. */
  local?: InProcessServices;
}

export interface StartedVoiceSandbox {
  server: RunningMediaServer;
  close(): Promise<void>;
}

/** The runtime calls the calls service as an internal part of the platform, outside any workspace. */
const runtimeCaller: Caller = { workspaceId: '', principal: { type: 'internal', id: 'voice-sandbox', name: 'sandbox voice runtime' }, scopes: null, requestId: '' };

export async function startVoiceSandbox(env: Env, options: VoiceSandboxOptions = {}): Promise<StartedVoiceSandbox> {
  const config = readVoiceSandboxConfig(env);
  const logger = options.logger ?? createLogger({ service: 'voice-sandbox', level: config.common.logLevel });
  const signer = new CallerSigner(config.common.internalSecret);
  // Calls last minutes: a session's reports must not hang on a calls service that stopped answering.
  const channel = openInternalChannel({ name: 'calls', url: config.callsUrl, defaultTimeoutMs: 30_000 }, options.local);
  try {
    const server = await startMediaServer({
      host: config.host,
      port: config.port,
      client: createClient(CallSessionService, channel.transport),
      callOptions: () => ({ headers: callHeaders(signer, runtimeCaller) }),
      turnGapMs: config.turnGapMs,
      now: () => Date.now(),
      logger,
    });
    let closed: Promise<void> | undefined;
    return {
      server,
      close: () =>
        (closed ??= (async () => {
          await server.close();
          channel.close();
        })()),
    };
  } catch (error) {
    channel.close();
    throw error;
  }
}

// Run on its own: with the process's metrics server.
if (require.main === module) runProcess('voice-sandbox', startVoiceSandbox);
