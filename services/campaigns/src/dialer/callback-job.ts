// A callback job: one callback to place, on the dial jobs' stream (subject campaigns.dial.callbacks,
// its own durable consumer shared by every dialer). A callback is enqueued once it is due within
// callbackEnqueueAheadMs (at its creation, else by the due-callbacks job), as `callback:<id>`, so
// enqueueing it again is no second job; the job waits (nak with a delay) until the callback's time.
import { z } from 'zod';
import { callbackJobSubject, dialJobStream, durableNames, WorkQueue, type EventStream } from '@voice/runtime/events';
import type { Logger } from '@voice/runtime/logger';
import type { CallbackRecord } from '../store/callback-store.js';
import { dialJobLimits } from './dial-job.js';

export const callbackJobSchema = z.object({
  workspace: z.string().min(1),
  callback: z.string().min(1),
});

export type CallbackJob = z.output<typeof callbackJobSchema>;
export type CallbackQueue = WorkQueue<typeof callbackJobSchema>;

/**
 * How long before its time a callback's job enters the queue: longer than the due-callbacks job's
 * period, so each callback is enqueued (and, were it lost, again) before it is due.
 */
export const callbackEnqueueAheadMs = 5 * 60_000;

/** The queue, its stream ensured (the campaigns service and the dialer both open it). */
export async function openCallbackQueue(events: EventStream, logger: Logger): Promise<CallbackQueue> {
  const queue = new WorkQueue(events, { stream: dialJobStream, subject: callbackJobSubject, durable: durableNames.campaignsCallbacks, schema: callbackJobSchema }, logger);
  await queue.ensure(dialJobLimits);
  return queue;
}

export const callbackJobId = (callbackId: string): string => `callback:${callbackId}`;

export const enqueueCallback = (queue: CallbackQueue, callback: Pick<CallbackRecord, 'workspaceId' | 'id'>): Promise<{ duplicate: boolean }> =>
  queue.enqueue({ workspace: callback.workspaceId, callback: callback.id }, callbackJobId(callback.id));

/** Whether the callback's job belongs in the queue by `now`. */
export const dueForQueue = (callback: Pick<CallbackRecord, 'at'>, now: number): boolean => Date.parse(callback.at) <= now + callbackEnqueueAheadMs;
