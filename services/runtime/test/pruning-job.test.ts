// A service's pruning job: each kind's cut-off is the run's clock less that kind's retention, one
// run deletes at most its batch over all kinds (a full batch makes the runner come back at once),
// an aborted run stops between kinds, and what was deleted is counted by kind.
import { Registry } from 'prom-client';
import { pruningJob, type PruneStep } from '../src/jobs/pruning-job.js';
import { readRetentionConfig } from '../src/config/retention.js';

/** A kind with `count` records, each `ageMs` old per index (record i is i+1 units old). */
function recordsStep(kind: string, retentionMs: number, createdAt: number[]): PruneStep & { left: number[]; cutOffs: string[] } {
  const step = {
    kind,
    retentionMs,
    left: [...createdAt].sort((a, b) => a - b),
    cutOffs: [] as string[],
    prune: async (before: string, limit: number) => {
      step.cutOffs.push(before);
      const doomed = step.left.filter((at) => at < Date.parse(before)).slice(0, limit);
      step.left = step.left.slice(doomed.length);
      return doomed.length;
    },
  };
  return step;
}

const now = new Date('2026-05-01T12:00:00.000Z');
const hours = (count: number) => count * 3_600_000;
const ago = (ms: number) => now.getTime() - ms;

describe('pruningJob', () => {
  test('cuts each kind off at its own retention, deletes at most the batch in all, and counts by kind', async () => {
    const registry = new Registry();
    const outbox = recordsStep('outbox', hours(24), [ago(hours(30)), ago(hours(25)), ago(hours(2))]);
    const claims = recordsStep('idempotency_claims', hours(48), [ago(hours(72)), ago(hours(50)), ago(hours(30))]);
    const job = pruningJob({ service: 'tools', periodMs: 1000, steps: [outbox, claims], registry });
    expect(job.name).toBe('tools.retention');
    const signal = new AbortController().signal;

    expect(await job.run({ now, signal, batchSize: 3 })).toBe(3);
    expect(outbox.cutOffs).toEqual(['2026-04-30T12:00:00.000Z']);
    expect(claims.cutOffs).toEqual(['2026-04-29T12:00:00.000Z']);
    expect(outbox.left).toEqual([ago(hours(2))]);
    expect(claims.left).toEqual([ago(hours(50)), ago(hours(30))]);

    expect(await job.run({ now, signal, batchSize: 3 })).toBe(1);
    expect(claims.left).toEqual([ago(hours(30))]);
    expect(await job.run({ now, signal, batchSize: 3 })).toBe(0);

    const counted = (await registry.getSingleMetric('retention_pruned_records_total')!.get()).values;
    expect(counted.map(({ labels, value }) => [labels.kind, labels.job, value]).sort()).toEqual([
      ['idempotency_claims', 'tools.retention', 2],
      ['outbox', 'tools.retention', 2],
    ]);
  });

  test('a full batch from the first kind leaves the others for the next run; an aborted run prunes nothing more', async () => {
    const first = recordsStep('outbox', 0, [ago(3), ago(2), ago(1)]);
    const second = recordsStep('processed_events', 0, [ago(1)]);
    const job = pruningJob({ service: 'billing', periodMs: 1000, steps: [first, second], registry: new Registry() });
    expect(await job.run({ now, signal: new AbortController().signal, batchSize: 2 })).toBe(2);
    expect(second.cutOffs).toEqual([]);
    const aborted = new AbortController();
    aborted.abort();
    expect(await job.run({ now, signal: aborted.signal, batchSize: 2 })).toBe(0);
    expect([first.left.length, second.left.length]).toEqual([1, 1]);
  });
});

describe('readRetentionConfig', () => {
  test('defaults, and refuses what would forget a redelivery or an idempotency key too early', () => {
    expect(readRetentionConfig({})).toEqual({
      periodMs: 3_600_000,
      publishedEventsMs: hours(24),
      deduplicationMs: hours(35 * 24),
      idempotencyMs: hours(24),
      oauthMs: hours(7 * 24),
      mailMs: hours(30 * 24),
      unverifiedCallerIdsMs: hours(7 * 24),
    });
    expect(() => readRetentionConfig({ VOICE_RETENTION_DEDUPLICATION_DAYS: '30' })).toThrow('VOICE_RETENTION_DEDUPLICATION_DAYS must be between 31 and 3650');
    expect(() => readRetentionConfig({ VOICE_RETENTION_IDEMPOTENCY_HOURS: '23' })).toThrow('VOICE_RETENTION_IDEMPOTENCY_HOURS must be between 24');
    expect(readRetentionConfig({ VOICE_RETENTION_OAUTH_DAYS: '0', VOICE_RETENTION_CHECK_SECONDS: '60' })).toMatchObject({ oauthMs: 0, periodMs: 60_000 });
    expect(readRetentionConfig({ VOICE_RETENTION_UNVERIFIED_CALLER_IDS_DAYS: '1' })).toMatchObject({ unverifiedCallerIdsMs: hours(24) });
  });
});
