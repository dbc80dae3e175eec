// A dial job: one call attempt of one lead, on the campaigns' work queue. Its id is the lead and the
// attempt, so enqueueing an attempt again (a restart, a start after a crash) is no second job.
import { z } from 'zod';
import { dialJobStream, dialJobSubject, durableNames, WorkQueue, type EventStream } from '@voice/runtime/events';
import type { Logger } from '@voice/runtime/logger';
import type { LeadRecord } from '../store/store.js';

export const dialJobSchema = z.object({
  workspace: z.string().min(1),
  campaign: z.string().min(1),
  lead: z.string().min(1),
  /** The lead's call this job places: 1 for the first. */
  attempt: z.int().min(1),
});

export type DialJob = z.output<typeof dialJobSchema>;
export type DialQueue = WorkQueue<typeof dialJobSchema>;

export const dialJobId = (job: Pick<DialJob, 'lead' | 'attempt'>): string => `${job.lead}:${job.attempt}`;

/** The queue, its stream ensured (producers and the dialer both open it). */
export async function openDialQueue(events: EventStream, logger: Logger): Promise<DialQueue> {
  const queue = new WorkQueue(events, { stream: dialJobStream, subject: dialJobSubject, durable: durableNames.campaignsDialer, schema: dialJobSchema }, logger);
  await queue.ensure();
  return queue;
}

/** Enqueues the lead's next attempt. */
export function enqueueNextAttempt(queue: DialQueue, lead: LeadRecord): Promise<{ duplicate: boolean }> {
  const job: DialJob = { workspace: lead.workspaceId, campaign: lead.campaignId, lead: lead.id, attempt: lead.attempts + 1 };
  return queue.enqueue(job, dialJobId(job));
}
