// The dialer's rate: a campaign of N leads of the root workspace (the sandbox carrier answers each;
// pacing at its highest, a window open all day) is started, and its progress is read until the
// calls service counts N calls placed for it: N over the time from the start to then is the dial rate.
// Then, once the campaign completed, the integrity: every lead called exactly once.
import { setTimeout as sleep } from 'node:timers/promises';
import { expectApi, listAll } from './api-client.js';
import { prepareCaller } from './call-fixtures.js';
import { readUntil } from './read-until.js';

export interface DialIntegrity {
  /** Calls the calls service counts for the campaign. */
  placed: number;
  /** Leads with exactly one call, and with more than one. */
  calledOnce: number;
  calledTwice: number;
  /** Leads not completed when the bench stopped waiting. */
  notCompleted: number;
}

export interface DialSection {
  label: string;
  /** Dialer processes taking the campaign's jobs. */
  replicas: number;
  leads: number;
  /** From the start request to the read that counted every lead's call; undefined if that never came. */
  seconds: number | undefined;
  leadsPerSecond: number | undefined;
  integrity: DialIntegrity;
  timeoutSeconds: number;
}

const pacing = { max_concurrent: 100, calls_per_minute: 600 };

interface Stats {
  status: string;
  progress: { leads: { completed: number; failed: number }; calls: { placed: number } };
}

/** At most this many leads: one bulk import, one number each of +1 415 555 0000-9999. */
export const maxDialLeads = 10_000;

/** Distinct numbers the sandbox answers (none of its magic ones, which sit at +1500555…). */
const leadPhone = (index: number): string => `+1415555${String(index).padStart(4, '0')}`;

export async function measureDialRate(baseUrl: string, apiKey: string, label: string, replicas: number, leads: number, timeoutSeconds: number): Promise<DialSection> {
  const caller = await prepareCaller(baseUrl, apiKey);
  const campaign = (await expectApi(201, baseUrl, apiKey, 'POST', '/api/v1/campaigns', {
    name: `Bench dial ${label}`,
    assistant_id: caller.assistantId,
    from_number_ids: [caller.numberId],
    // Open all day but the last minute, in the zone of the leads (they have none of their own).
    window: { days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], start: '00:00', end: '23:59', time_zone: 'Etc/GMT' },
    pacing,
    retry: { max_attempts: 1, delay_minutes: 1, on: [] },
  })) as { data: { id: string } };
  const id = campaign.data.id;
  await expectApi(200, baseUrl, apiKey, 'POST', `/api/v1/campaigns/${id}/leads/bulk`, { leads: Array.from({ length: leads }, (_, index) => ({ phone: leadPhone(index) })) });
  const stats = async () => ((await expectApi(200, baseUrl, apiKey, 'GET', `/api/v1/campaigns/${id}/stats`)) as { data: Stats }).data;

  const startedAt = Date.now();
  await expectApi(200, baseUrl, apiKey, 'POST', `/api/v1/campaigns/${id}/start`, {});
  let calledAt: number | undefined;
  const called = await readUntil(
    async () => {
      const placed = (await stats()).progress.calls.placed >= leads;
      if (placed) calledAt = Date.now();
      return placed;
    },
    timeoutSeconds,
    100,
  );
  const seconds = called.complete && calledAt !== undefined ? (calledAt - startedAt) / 1000 : undefined;
  await readUntil(async () => (await stats()).status === 'completed', timeoutSeconds, 250);
  // The calls' ends may still settle a lead or two: one more look after a pause.
  await sleep(500);
  return { label, replicas, leads, seconds, leadsPerSecond: seconds === undefined ? undefined : leads / seconds, integrity: await integrityOf(baseUrl, apiKey, id, await stats()), timeoutSeconds };
}

async function integrityOf(baseUrl: string, apiKey: string, id: string, stats: Stats): Promise<DialIntegrity> {
  let calledOnce = 0;
  let calledTwice = 0;
  let notCompleted = 0;
  for await (const lead of listAll<{ status: string; call_ids: string[] }>(baseUrl, apiKey, `/api/v1/campaigns/${id}/leads`)) {
    if (lead.call_ids.length === 1) calledOnce += 1;
    if (lead.call_ids.length > 1) calledTwice += 1;
    if (lead.status !== 'completed') notCompleted += 1;
  }
  return { placed: stats.progress.calls.placed, calledOnce, calledTwice, notCompleted };
}

/** What makes a dial measurement broken: not every lead called within the time, or one called twice. */
export function findDialFailures(section: DialSection): string[] {
  const { label, leads, integrity } = section;
  const failures: string[] = [];
  if (section.seconds === undefined) failures.push(`${label}: ${integrity.placed} of ${leads} leads called after ${section.timeoutSeconds} s`);
  if (integrity.placed !== leads || integrity.calledOnce !== leads) failures.push(`${label}: ${integrity.placed} calls placed and ${integrity.calledOnce} leads called once, of ${leads} leads`);
  if (integrity.calledTwice > 0) failures.push(`${label}: ${integrity.calledTwice} leads called more than once`);
  if (integrity.notCompleted > 0) failures.push(`${label}: ${integrity.notCompleted} leads not completed`);
  return failures;
}
