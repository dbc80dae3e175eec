// A dial job: one call attempt of one lead in one run of its campaign (from a start to its stop), on
// the campaigns' work queue. Its id is the lead, the attempt, the run and the version of the campaign's
// calling window when it was enqueued, so enqueueing an attempt again within a run is no second job, a
// campaign started again enqueues its leads anew, and so does a change of its window mid-run: a job put
// off until the old window opens would otherwise be the only one the queue keeps (the lead's
// conditional claim lets only one of the two dial). Other changes (a name, pacing) make no new jobs.
import { z } from 'zod';
import { dialJobStream, dialJobSubject, durableNames, WorkQueue, type EventStream } from '@voice/runtime/events';
import type { Logger } from '@voice/runtime/logger';
import { dueTimesVersion } from '../domain/settings.js';
import type { CampaignRecord, LeadRecord } from '../store/store.js';

export const dialJobSchema = z.object({
  workspace: z.string().min(1),
  campaign: z.string().min(1),
  lead: z.string().min(1),
  /** The lead's call this job places: 1 for the first. */
  attempt: z.int().min(1),
  /** The campaign's started_at when the job was enqueued: a job of an earlier run is dropped. */
  run: z.string().min(1),
});

export type DialJob = z.output<typeof dialJobSchema>;
export type DialQueue = WorkQueue<typeof dialJobSchema>;

/** The run (started_at) and the settings of the campaign a job is enqueued in. */
export type DialRun = Pick<CampaignRecord, 'startedAt' | 'settings'>;

export const dialJobId = (job: Pick<DialJob, 'lead' | 'attempt' | 'run'>, dueTimes: string): string => `${job.lead}:${job.attempt}:${Date.parse(job.run)}:${dueTimes}`;

/**
 * Re-enqueueing a job a queue still holds must be dropped for as long as a job may wait there: a
 * retry's delay or a closed window, at most a week.
 */
export const dialJobLimits = { duplicateWindowMs: 8 * 24 * 3600_000, maxAgeMs: 15 * 24 * 3600_000 };

/** The queue, its stream ensured (producers and the dialer both open it). */
export async function openDialQueue(events: EventStream, logger: Logger): Promise<DialQueue> {
  const queue = new WorkQueue(events, { stream: dialJobStream, subject: dialJobSubject, durable: durableNames.campaignsDialer, schema: dialJobSchema }, logger);
  await queue.ensure(dialJobLimits);
  return queue;
}

/** A lead claimed for a call that was never recorded (its dialer stopped in between): that attempt is still to be finished. */
export const unfinishedAttempt = (lead: LeadRecord): boolean => lead.status === 'calling' && lead.callIds.length < lead.attempts;

/** Enqueues the lead's next attempt (or its unfinished one) in the campaign's current run, under its current window. */
export function enqueueNextAttempt(queue: DialQueue, lead: LeadRecord, campaign: DialRun): Promise<{ duplicate: boolean }> {
  if (!campaign.startedAt) throw new Error(`campaign ${lead.campaignId} has never started`);
  const attempt = unfinishedAttempt(lead) ? lead.attempts : lead.attempts + 1;
  const job: DialJob = { workspace: lead.workspaceId, campaign: lead.campaignId, lead: lead.id, attempt, run: campaign.startedAt };
  return queue.enqueue(job, dialJobId(job, dueTimesVersion(campaign.settings)));
}
