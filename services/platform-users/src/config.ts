// Every setting of the platform-users service, read and validated once at start.
import { isIP } from 'node:net';
import { join } from 'node:path';
import { emailIssue } from '@voice/runtime/accounts';
import {
  ConfigError,
  readCommonConfig,
  readEncryptionKey,
  readInt,
  readListenAddress,
  readOptionalString,
  readPublicUrl,
  readServiceUrl,
  type CommonConfig,
  type Env,
} from '@voice/runtime/config';
import type { SmtpSettings } from './mail/smtp-mailer.js';

export interface PlatformUsersConfig {
  common: CommonConfig;
  host: string;
  port: number;
  /** The host name custom domains must CNAME to: the platform's public address. */
  platformHost: string;
  /** DNS servers for custom-domain checks as host:port; empty means the system's. */
  dnsServers: string[];
  identityUrl: string;
  billingUrl: string;
  /** The gateway's external base address: invitation links of platforms without a custom domain. */
  publicUrl: string;
  /** Seals the stored e-mails, which carry invitation tokens. */
  encryptionKey: Buffer;
  invitationTtlHours: number;
  /** How long an e-mail sender's confirmation link works. */
  emailSenderConfirmationHours: number;
  /** How long a custom-domain claim may stay unverified before it lapses and stops holding the domain. */
  customDomainClaimDays: number;
  mailFrom: string;
  /** The SMTP server; undefined writes mail as .eml files into mailDirectory (the embedded mode). */
  smtp: SmtpSettings | undefined;
  mailDirectory: string;
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

const smtpUrlShape = 'must be smtp://[user:password@]host[:port] or smtps://…, without a path or query';

/** Parsed here rather than by readUrl: its errors quote the value, and this one may hold a password. */
function readSmtp(env: Env): SmtpSettings | undefined {
  const raw = readOptionalString(env, 'VOICE_SMTP_URL');
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('VOICE_SMTP_URL', smtpUrlShape);
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new ConfigError('VOICE_SMTP_URL', `must use smtp: or smtps:, got "${url.protocol}"`);
  if (!url.hostname || (url.pathname !== '' && url.pathname !== '/') || url.search || url.hash) throw new ConfigError('VOICE_SMTP_URL', smtpUrlShape);
  const secure = url.protocol === 'smtps:';
  let user: string;
  let pass: string;
  try {
    user = decodeURIComponent(url.username);
    pass = decodeURIComponent(url.password);
  } catch {
    throw new ConfigError('VOICE_SMTP_URL', 'has a user name or password that is not validly percent-encoded');
  }
  if (pass && !user) throw new ConfigError('VOICE_SMTP_URL', 'has a password without a user name');
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    auth: user ? { user, pass } : undefined,
  };
}

/**
 * The sender when VOICE_MAIL_FROM is unset: no-reply at the platform's host. A host that is an IP address
 * takes the address-literal form (RFC 5321 4.1.3): `no-reply@127.0.0.1` is no address at all.
 */
export function defaultMailFrom(platformHost: string): string {
  const host = platformHost.replace(/^\[|\]$/g, '');
  if (isIP(host) === 4) return `no-reply@[${host}]`;
  if (isIP(host) === 6) return `no-reply@[IPv6:${host}]`;
  return `no-reply@${host}`;
}

function readMailFrom(env: Env, platformHost: string): string {
  const from = readOptionalString(env, 'VOICE_MAIL_FROM');
  if (from === undefined) return defaultMailFrom(platformHost);
  if (emailIssue(from)) throw new ConfigError('VOICE_MAIL_FROM', `must be an e-mail address such as no-reply@example.com, got "${from}"`);
  return from;
}

export function readPlatformUsersConfig(env: Env): PlatformUsersConfig {
  const common = readCommonConfig(env);
  const publicUrl = readPublicUrl(env);
  const platformHost = new URL(publicUrl).hostname.toLowerCase();
  return {
    common,
    ...readListenAddress(env, 'platform-users'),
    platformHost,
    dnsServers: readDnsServers(env),
    identityUrl: readServiceUrl(env, 'identity'),
    billingUrl: readServiceUrl(env, 'billing'),
    publicUrl,
    encryptionKey: readEncryptionKey(env, common),
    invitationTtlHours: readInt(env, 'VOICE_INVITATION_TTL_HOURS', 168, { min: 1, max: 720 }),
    emailSenderConfirmationHours: readInt(env, 'VOICE_EMAIL_SENDER_CONFIRMATION_HOURS', 24, { min: 1, max: 168 }),
    customDomainClaimDays: readInt(env, 'VOICE_CUSTOM_DOMAIN_CLAIM_DAYS', 7, { min: 1, max: 90 }),
    mailFrom: readMailFrom(env, platformHost),
    smtp: readSmtp(env),
    mailDirectory: join(common.dataDir, 'mail-outbox'),
  };
}
