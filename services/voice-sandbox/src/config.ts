// Every setting of the sandbox voice runtime, read and validated once at start.
import { readCommonConfig, readInt, readMediaListenAddress, readServiceUrl, type CommonConfig, type Env } from '@voice/runtime/config';

export interface VoiceSandboxConfig {
  common: CommonConfig;
  host: string;
  /** 50060 by default: the port telephony's VOICE_MEDIA_URL points at unless told otherwise. */
  port: number;
  /** The calls service, whose CallSessionService the runtime reports to. */
  callsUrl: string;
  /** How long the runtime waits between two turns of a script, as a person would (0: none). */
  turnGapMs: number;
}

export function readVoiceSandboxConfig(env: Env): VoiceSandboxConfig {
  return {
    common: readCommonConfig(env),
    ...readMediaListenAddress(env, 'sandboxRuntime'),
    callsUrl: readServiceUrl(env, 'calls'),
    turnGapMs: readInt(env, 'VOICE_SANDBOX_TURN_GAP_MS', 0, { min: 0, max: 60_000 }),
  };
}
