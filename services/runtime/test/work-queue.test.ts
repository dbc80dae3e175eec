// The WorkQueue on both adapters (in-process, and JetStream on the real server at 127.0.0.1:4222):
// jobs shared by workers and handled once each, de-duplicated by id, put off by a worker until due,
// malformed ones dropped; and what work-queue retention does to JetStream's stored messages.
import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import { z } from 'zod';
import { createLogger } from '../src/logger.js';
import type { Consumption, EventStream } from '../src/events/event-stream.js';
import { InProcessEventStream } from '../src/events/in-process.js';
import { JetStreamEventStream } from '../src/events/jetstream.js';
import { jobDone, jobLater, WorkQueue } from '../src/events/work-queue.js';

const natsUrl = 'nats://127.0.0.1:4222';
const silent = createLogger({ service: 'work-queue-test', level: 'silent' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const jobSchema = z.object({ lead: z.string(), attempt: z.number().int() });

async function waitFor(what: string, condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

interface Setup {
  events: EventStream;
  queue: WorkQueue<typeof jobSchema>;
  streamName: string;
  subject: string;
}

function workQueueBehaviour(open: () => Promise<EventStream>, created: string[]): () => Setup {
  let setup: Setup;
  const workers: Consumption[] = [];

  beforeEach(async () => {
    const run = randomUUID();
    const streamName = `work_test_${run}`;
    const subject = `work-test.${run}.jobs`;
    const events = await open();
    const queue = new WorkQueue(events, { stream: { name: streamName, subjects: [`work-test.${run}.>`] }, subject, durable: 'workers', schema: jobSchema }, silent);
    await queue.ensure({ duplicateWindowMs: 60_000 });
    created.push(streamName);
    setup = { events, queue, streamName, subject };
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));
    await setup.events.close();
  });

  test('two workers share the jobs: each is handled exactly once, by one of them', async () => {
    const handled: string[][] = [[], []];
    for (const [index, list] of handled.entries()) {
      workers.push(await setup.queue.work(async (job) => {
        list.push(`${job.lead}/${job.attempt}`);
        await sleep(index === 0 ? 5 : 7);
        return jobDone;
      }, { concurrency: 3 }));
    }
    const leads = Array.from({ length: 40 }, (_, i) => `lead-${i}`);
    await Promise.all(leads.map((lead) => setup.queue.enqueue({ lead, attempt: 1 }, `${lead}:1`)));
    await waitFor('every job', () => handled[0]!.length + handled[1]!.length >= leads.length);
    await sleep(300);
    const all = [...handled[0]!, ...handled[1]!].sort();
    expect(all).toEqual(leads.map((lead) => `${lead}/1`).sort());
  });

  test('a job id enqueued again is a duplicate and handled once; another attempt is a new job', async () => {
    expect(await setup.queue.enqueue({ lead: 'a', attempt: 1 }, 'a:1')).toEqual({ duplicate: false });
    expect(await setup.queue.enqueue({ lead: 'a', attempt: 1 }, 'a:1')).toEqual({ duplicate: true });
    expect(await setup.queue.enqueue({ lead: 'a', attempt: 2 }, 'a:2')).toEqual({ duplicate: false });
    const handled: string[] = [];
    workers.push(await setup.queue.work(async (job, delivery) => {
      handled.push(`${delivery.id}=${job.attempt}`);
      return jobDone;
    }));
    await waitFor('two jobs', () => handled.length >= 2);
    await sleep(300);
    expect(handled).toEqual(['a:1=1', 'a:2=2']);
    // Acked and gone, the id is still remembered for the duplicate window: a re-enqueue after a crash is no second job.
    expect(await setup.queue.enqueue({ lead: 'a', attempt: 1 }, 'a:1')).toEqual({ duplicate: true });
  });

  test('a job put off comes again after the delay the worker named, not before, then is done', async () => {
    const deliveries: { at: number; count: number }[] = [];
    workers.push(await setup.queue.work(async (_job, delivery) => {
      deliveries.push({ at: Date.now(), count: delivery.deliveryCount });
      return delivery.deliveryCount === 1 ? jobLater(700) : jobDone;
    }, { redeliveryBackoff: { initialMs: 10, maxMs: 10 } }));
    await setup.queue.enqueue({ lead: 'b', attempt: 1 }, 'b:1');
    await waitFor('the second delivery', () => deliveries.length >= 2);
    expect(deliveries[1]!.at - deliveries[0]!.at).toBeGreaterThanOrEqual(650);
    expect(deliveries.map((delivery) => delivery.count)).toEqual([1, 2]);
    await sleep(900);
    expect(deliveries).toHaveLength(2);
  });

  test('a malformed job is dropped, the ones after it are handled', async () => {
    await setup.events.publish(setup.subject, new TextEncoder().encode('{"lead": 7}'), 'bad');
    await setup.events.publish(setup.subject, new TextEncoder().encode('not json'), 'worse');
    await setup.queue.enqueue({ lead: 'c', attempt: 1 }, 'c:1');
    const handled: string[] = [];
    workers.push(await setup.queue.work(async (job) => {
      handled.push(job.lead);
      return jobDone;
    }));
    await waitFor('the good job', () => handled.length >= 1);
    await sleep(300);
    expect(handled).toEqual(['c']);
  });

  test('a worker that throws gets the job again after its backoff', async () => {
    let calls = 0;
    workers.push(await setup.queue.work(async () => {
      calls += 1;
      if (calls === 1) throw new Error('calls service unavailable');
      return jobDone;
    }, { redeliveryBackoff: { initialMs: 50, maxMs: 50 } }));
    await setup.queue.enqueue({ lead: 'd', attempt: 1 }, 'd:1');
    await waitFor('the retry', () => calls >= 2);
    await sleep(300);
    expect(calls).toBe(2);
  });

  return () => setup;
}

describe('WorkQueue in-process', () => {
  workQueueBehaviour(async () => new InProcessEventStream(silent), []);
});

describe('WorkQueue on JetStream (nats://127.0.0.1:4222)', () => {
  const created: string[] = [];
  let admin: NatsConnection;
  beforeAll(async () => {
    admin = await connect({ servers: natsUrl });
  });
  afterAll(async () => {
    const manager = await admin.jetstreamManager();
    for (const name of created) await manager.streams.delete(name).catch(() => false);
    await admin.close();
  });
  const current = workQueueBehaviour(() => JetStreamEventStream.connect(natsUrl, 'work-queue-test', silent), created);

  test('the stream has work-queue retention and holds no job once it is done', async () => {
    const { queue, streamName } = current();
    await queue.enqueue({ lead: 'e', attempt: 1 }, 'e:1');
    await queue.enqueue({ lead: 'f', attempt: 1 }, 'f:1');
    const manager = await admin.jetstreamManager();
    let info = await manager.streams.info(streamName);
    expect(info.config.retention).toBe('workqueue');
    expect(info.state.messages).toBe(2);
    let done = 0;
    const worker = await queue.work(async () => {
      done += 1;
      return jobDone;
    });
    await waitFor('both jobs', () => done >= 2);
    await sleep(200);
    await worker.stop();
    info = await manager.streams.info(streamName);
    expect(info.state.messages).toBe(0);
  });
});
