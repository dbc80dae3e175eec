// Starts the platform-users service: config, store, DNS lookups, the identity and billing
// clients, the mail relay, the periodic jobs (the pruning of old mail) and the Connect server;
// stops cleanly on SIGTERM.
import { CallerSigner } from '@voice/runtime/caller';
import type { Env } from '@voice/runtime/config';
import { SecretBox } from '@voice/runtime/crypto';
import type { InProcessServices } from '@voice/runtime/internal';
import { startPeriodicJobs, type RunningJobs } from '@voice/runtime/jobs';
import { createLogger, type Logger } from '@voice/runtime/logger';
import { runProcess } from '@voice/runtime/process';
import { serviceServerOptions, startConnectServer, type StartedService } from '@voice/runtime/server';
import { openServiceStore } from '@voice/runtime/store';
import { readPlatformUsersConfig } from './config.js';
import { ResolverDnsLookup } from './custom-domains/dns-lookup.js';
import { ConfirmationTokens } from './email/confirmation-tokens.js';
import { connectDownstreams } from './downstream/clients.js';
import { Invitations } from './invitations/invitations.js';
import { DirectoryMailer } from './mail/directory-mailer.js';
import { MailRelay } from './mail/relay.js';
import { SmtpMailer } from './mail/smtp-mailer.js';
import { platformUsersRetentionJob } from './retention.js';
import { platformUsersRoutes, platformUsersServiceNames } from './routes.js';
import { openSqlitePlatformUsersStore } from './store/sqlite.js';
import type { PlatformUsersStore } from './store/store.js';

export interface PlatformUsersOptions {
  logger?: Logger;
  /** The process's in-process services (single-process mode): identity and billing are called there, and this service's handlers are callable there too. */
  local?: InProcessServices;
}

export async function startPlatformUsersService(env: Env, options: PlatformUsersOptions = {}): Promise<StartedService> {
  const config = readPlatformUsersConfig(env);
  const log = options.logger ?? createLogger({ service: 'platform-users', level: config.common.logLevel });
  // Without an SMTP server, mail is written to files (the sandbox), which the pruning job also clears.
  const sandbox = config.smtp ? undefined : await DirectoryMailer.open(config.mailDirectory);
  const mailer = sandbox ?? new SmtpMailer(config.smtp!);
  const store = await openServiceStore<PlatformUsersStore>(config.common, {
    service: 'platform-users',
    sqlite: openSqlitePlatformUsersStore,
    mongo: async (uri, database) => (await import('./store/mongo.js')).connectMongoPlatformUsersStore(uri, database),
  }).catch((error: unknown) => {
    mailer.close();
    throw error;
  });
  const signer = new CallerSigner(config.common.internalSecret);
  const box = new SecretBox(config.encryptionKey);
  const downstreams = connectDownstreams({ identity: config.identityUrl, billing: config.billingUrl }, signer, options.local);
  const relay = new MailRelay({ store, mailer, box, from: config.mailFrom, logger: log.child({ component: 'mail-relay' }) });
  const now = () => new Date();
  let jobs: RunningJobs | undefined;
  const stopParts = async () => {
    await jobs?.stop();
    await relay.stop();
    mailer.close();
    downstreams.close();
    await store.close();
  };
  try {
    jobs = await startPeriodicJobs(config.common, 'platform-users', { logger: log }, [platformUsersRetentionJob(store, sandbox, config.common.retention)]);
    const server = await startConnectServer({
      ...serviceServerOptions('platform-users', config, { logger: log, local: options.local, signer }),
      serviceNames: platformUsersServiceNames,
      routes: platformUsersRoutes({
        customDomains: { store, dns: new ResolverDnsLookup(config.dnsServers), platformHost: config.platformHost, claimDays: config.customDomainClaimDays, now },
        notices: { identity: downstreams.identity, store, box, mailQueued: () => relay.wake(), now },
        emailSenders: {
          store,
          box,
          tokens: new ConfirmationTokens(config.common.internalSecret),
          confirmationTtlSeconds: config.emailSenderConfirmationHours * 3600,
          publicUrl: config.publicUrl,
          mailQueued: () => relay.wake(),
          now,
        },
        workspaceEmails: { store, box, mailQueued: () => relay.wake(), now },
        platformUsers: {
          identity: downstreams.identity,
          billing: downstreams.billing,
          store,
          invitations: new Invitations({
            store,
            identity: downstreams.identity,
            box,
            publicUrl: config.publicUrl,
            ttlHours: config.invitationTtlHours,
            mailQueued: () => relay.wake(),
            now,
          }),
        },
      }),
    });
    relay.start();
    log.info('mail relay started', { transport: config.smtp ? 'smtp' : 'directory', ...(config.smtp ? {} : { directory: config.mailDirectory }) });
    return {
      server,
      close: async () => {
        await server.close();
        await stopParts();
      },
    };
  } catch (error) {
    await stopParts();
    throw error;
  }
}

// Run on its own: with the process's metrics server (the platform serves one for all its parts).
if (require.main === module) runProcess('platform-users', startPlatformUsersService);
