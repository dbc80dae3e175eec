// The platform-users service's pruning job: mail the outbox is done with, and the sandbox's
// `.eml` files when no SMTP server is configured. Invitations and domains stay.
import type { RetentionConfig } from '@voice/runtime/config';
import { pruningJob, type PeriodicJob, type PruneStep } from '@voice/runtime/jobs';
import type { DirectoryMailer } from './mail/directory-mailer.js';
import type { MailOutboxStore } from './store/store.js';

export function platformUsersRetentionJob(store: MailOutboxStore, sandbox: DirectoryMailer | undefined, retention: RetentionConfig): PeriodicJob {
  const steps: PruneStep[] = [{ kind: 'mail_outbox', retentionMs: retention.mailMs, prune: (before, limit) => store.pruneFinishedMail(before, limit) }];
  if (sandbox) steps.push({ kind: 'sandbox_mail_files', retentionMs: retention.mailMs, prune: (before, limit) => sandbox.prune(before, limit) });
  return pruningJob({ service: 'platform-users', periodMs: retention.periodMs, steps });
}
