// A queue of jobs that several replicas share, on any EventStream: a stream with work-queue
// retention (each job kept until one worker acks it), one durable consumer for all workers, jobs
// de-duplicated by their id, and a handler that may put a job off until it is due.
import type { z } from 'zod';
import type { Logger } from '../logger.js';
import { DeliverLater, type Consumption, type EnsureStreamOptions, type EventStream, type StreamEvent } from './event-stream.js';
import type { StreamDefinition } from './streams.js';

export interface WorkQueueDefinition<Schema extends z.ZodType> {
  stream: StreamDefinition;
  /** The subject jobs are published on; one of the stream's. */
  subject: string;
  /** The one durable consumer every worker shares. */
  durable: string;
  /** What a job is: checked when it is taken, so a malformed one is dropped rather than retried forever. */
  schema: Schema;
}

/** What a worker did with a job: done (it leaves the queue), or not due yet (it comes again after `retryInMs`). */
export type JobOutcome = { kind: 'done' } | { kind: 'later'; retryInMs: number };

export const jobDone: JobOutcome = { kind: 'done' };
export const jobLater = (retryInMs: number): JobOutcome => ({ kind: 'later', retryInMs: Math.max(0, Math.ceil(retryInMs)) });

/** A job as its worker sees it: rejecting asks for it again after the consumer's backoff. */
export type JobHandler<Job> = (job: Job, delivery: { id: string; deliveryCount: number }) => Promise<JobOutcome>;

export interface WorkOptions {
  /** Jobs handled at once by this worker. */
  concurrency?: number;
  /** How long a worker that died holding a job keeps it from the others. */
  ackWaitMs?: number;
  redeliveryBackoff?: { initialMs: number; maxMs: number };
}

export class WorkQueue<Schema extends z.ZodType> {
  constructor(
    private readonly events: EventStream,
    private readonly definition: WorkQueueDefinition<Schema>,
    private readonly logger: Logger,
  ) {}

  /** Creates the queue's stream (workers and producers both call it before they use the queue). */
  ensure(options: Omit<EnsureStreamOptions, 'retention'> = {}): Promise<void> {
    return this.events.ensureStream(this.definition.stream.name, this.definition.stream.subjects, { ...options, retention: 'workqueue' });
  }

  /** Resolves once the queue holds the job; a job id already enqueued (within the duplicate window) is not enqueued twice. */
  async enqueue(job: z.input<Schema>, jobId: string): Promise<{ duplicate: boolean }> {
    return this.events.publish(this.definition.subject, new TextEncoder().encode(JSON.stringify(job)), jobId);
  }

  work(handler: JobHandler<z.output<Schema>>, options: WorkOptions = {}): Promise<Consumption> {
    return this.events.consume({
      stream: this.definition.stream.name,
      durable: this.definition.durable,
      subjects: [this.definition.subject],
      concurrency: options.concurrency,
      ackWaitMs: options.ackWaitMs,
      redeliveryBackoff: options.redeliveryBackoff,
      handler: async (event) => {
        const job = this.parse(event);
        if (job === undefined) return;
        const outcome = await handler(job, { id: event.id, deliveryCount: event.deliveryCount });
        if (outcome.kind === 'later') throw new DeliverLater(outcome.retryInMs);
      },
    });
  }

  /** The job, or undefined (logged) when it is not one: no later delivery would make it one. */
  private parse(event: StreamEvent): z.output<Schema> | undefined {
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder().decode(event.payload));
    } catch {
      body = undefined;
    }
    const parsed = this.definition.schema.safeParse(body);
    if (parsed.success) return parsed.data;
    this.logger.error('malformed job dropped', { jobId: event.id, durable: this.definition.durable });
    return undefined;
  }
}
