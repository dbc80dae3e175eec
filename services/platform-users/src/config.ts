// Every setting of the platform-users service, read and validated once at start.
import { ConfigError, readCommonConfig, readOptionalString, readPort, readPublicUrl, readString, type CommonConfig, type Env } from '@voice/runtime';

export interface PlatformUsersConfig {
  common: CommonConfig;
  host: string;
  port: number;
  /** The host name custom domains must CNAME to: the platform's public address. */
  platformHost: string;
  /** DNS servers for custom-domain checks as host:port; empty means the system's. */
  dnsServers: string[];
}

const hostPortPattern = /^(\[[0-9a-fA-F:.]+\]|[^\s:[\]]+)(:\d{1,5})?$/;

function readDnsServers(env: Env): string[] {
  const raw = readOptionalString(env, 'VOICE_DNS_SERVERS');
  if (raw === undefined || raw.trim() === '') return [];
  const servers = raw.split(',').map((server) => server.trim());
  for (const server of servers) {
    const port = Number(server.match(/:(\d+)$/)?.[1] ?? 53);
    if (!hostPortPattern.test(server) || port < 1 || port > 65_535) {
      throw new ConfigError('VOICE_DNS_SERVERS', `must be comma-separated host or host:port entries, got "${server}"`);
    }
  }
  return servers;
}

export function readPlatformUsersConfig(env: Env): PlatformUsersConfig {
  const common = readCommonConfig(env);
  return {
    common,
    host: readString(env, 'VOICE_PLATFORM_USERS_HOST', '127.0.0.1'),
    port: readPort(env, 'VOICE_PLATFORM_USERS_PORT', 50055),
    platformHost: new URL(readPublicUrl(env)).hostname.toLowerCase(),
    dnsServers: readDnsServers(env),
  };
}
