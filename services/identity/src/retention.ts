// Identity's pruning job: OAuth codes and tokens some time after they expired, then the grants
// left without a token. Codes go first, so a code's grant is never pruned while the code could
// still be replayed to revoke it.
import type { RetentionConfig } from '@voice/runtime/config';
import { pruningJob, type PeriodicJob } from '@voice/runtime/jobs';
import type { OAuthStore } from './store/store.js';

export const identityRetentionJob = (store: OAuthStore, retention: RetentionConfig): PeriodicJob =>
  pruningJob({
    service: 'identity',
    periodMs: retention.periodMs,
    steps: [
      { kind: 'oauth_codes', retentionMs: retention.oauthMs, prune: (before, limit) => store.pruneAuthorizationCodes(before, limit) },
      { kind: 'oauth_tokens', retentionMs: retention.oauthMs, prune: (before, limit) => store.pruneTokens(before, limit) },
      { kind: 'oauth_grants', retentionMs: retention.oauthMs, prune: (before, limit) => store.pruneGrants(before, limit) },
    ],
  });
