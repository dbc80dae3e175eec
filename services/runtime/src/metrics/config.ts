// Where a process serves its metrics: VOICE_METRICS_HOST and VOICE_METRICS_PORT (`off` serves none).
import { isIP } from 'node:net';
import { ConfigError, readIntOrOff, readString, type Env } from '../config/env.js';

export interface MetricsConfig {
  host: string;
  /** 0 picks a free port. */
  port: number;
}

export const defaultMetricsPort = 9464;

const hostnamePattern = /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** The metrics server's address, or undefined when VOICE_METRICS_PORT is `off`. */
export function readMetricsConfig(env: Env): MetricsConfig | undefined {
  const host = readString(env, 'VOICE_METRICS_HOST', '127.0.0.1');
  if (isIP(host) === 0 && !hostnamePattern.test(host)) {
    throw new ConfigError('VOICE_METRICS_HOST', `must be an IP address or a host name, got "${host}"`);
  }
  const port = readIntOrOff(env, 'VOICE_METRICS_PORT', defaultMetricsPort, { min: 0, max: 65_535 }, 'a port (0 to 65535, 0 for any free one) or off');
  return port === 'off' ? undefined : { host, port };
}
