// The dialer at scale on the cluster topology (issue 17): a campaign of 200 leads with two
// campaigns-dialer replicas (the cluster's own and a second process this test starts) calls each
// lead exactly once, never a suppressed number (suppressed before the start or while it runs), never
// while its calling window is closed (the dialers' clock moved out of the window mid-campaign while its
// setting stays, then walking into it again), never more calls at once than its max_concurrent (call
// slots shared in NATS KV), stop halts new dials within seconds, and the second replica SIGKILLed
// mid-campaign loses no lead and dials none twice.
// Cluster-only: `npx jest -c jest.cluster.config.js test/campaigns-dialer-cluster.test.ts`.
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import type { RunningCluster } from '@voice/platform';
import { callerMaxAgeSeconds } from '@voice/runtime/caller';
import { windowOpeningAt } from './support/campaigns.js';
import { movedClock } from './support/moved-clock.js';
import { startTestPlatform, topology, type TestPlatform } from './support/platform.js';
import { buySmsNumber } from './support/telephony.js';

const clusterOnly = topology === 'cluster' ? describe : describe.skip;

const leadCount = 200;
const maxConcurrent = 4;
/** Jobs one dialer replica handles at once (worker.ts): dials that passed their checks before a change and may still place their call after it. */
const dialsInFlightPerReplica = 4;
const replicas = 2;
const dialerEntry = 'services/campaigns/dist/src/dialer/main.js';
/**
 * The furthest the dialers' clock is moved from the real one: their calls to the other services are
 * signed with their clock, and refused further than callerMaxAgeSeconds from the receiver's.
 */
const mostMovedMs = callerMaxAgeSeconds * 1000 - 20_000;
/** How long the dialers' moved clock shows the window closed before it reaches the opening again. */
const closedForMs = 25_000;

interface ListedCall {
  id: string;
  to: string;
  created_at: string;
  ended_at: string | null;
  metadata: { campaign_id?: string; lead_id?: string; attempt?: number };
}

interface ListedLead {
  id: string;
  phone: string;
  status: string;
  attempts: number;
  call_ids: string[];
}

/** Waits for a condition with a generous deadline, looking twice a second (the listings are 200 rows and more). */
async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

/**
 * A second campaigns-dialer process beside the cluster's, with the environment the supervisor gives
 * its own (the same data, NATS namespace, secrets and peers); ready once it listens, which it does
 * after its queue worker and consumers started.
 */
async function startSecondDialer(platform: TestPlatform, cluster: RunningCluster, output: string[]): Promise<ChildProcess> {
  const port = await freePort();
  const env: Record<string, string> = {
    ...platform.env,
    DATA_DIR: cluster.dataDir,
    VOICE_INTERNAL_SECRET: cluster.secrets.internalSecret,
    VOICE_ENCRYPTION_KEY: cluster.secrets.encryptionKey,
    VOICE_ASSISTANTS_URL: cluster.services.assistants,
    VOICE_TELEPHONY_URL: cluster.services.telephony,
    VOICE_CALLS_URL: cluster.services.calls,
    VOICE_CAMPAIGNS_URL: cluster.services.campaigns,
    VOICE_CAMPAIGNS_DIALER_HOST: '127.0.0.1',
    VOICE_CAMPAIGNS_DIALER_PORT: String(port),
    VOICE_METRICS_PORT: '0',
  };
  const child = spawn(process.execPath, [join(__dirname, '..', dialerEntry)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  await until('the second dialer to listen', async () => {
    if (child.exitCode !== null) throw new Error(`the second dialer exited (${child.exitCode}):\n${output.join('')}`);
    return (await accepts(port)) ? true : undefined;
  }, 60_000);
  return child;
}

async function sigkill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** The most calls in progress at once, from each call's creation to its end (an end and a creation at one instant: the end first). */
function mostAtOnce(calls: readonly ListedCall[]): number {
  const changes = calls.flatMap((call) => [
    { at: Date.parse(call.created_at), delta: 1 },
    { at: Date.parse(call.ended_at!), delta: -1 },
  ]);
  changes.sort((a, b) => a.at - b.at || a.delta - b.delta);
  let current = 0;
  let most = 0;
  for (const { delta } of changes) {
    current += delta;
    most = Math.max(most, current);
  }
  return most;
}

clusterOnly('the dialer on the cluster with two replicas', () => {
  let platform: TestPlatform;
  let second: ChildProcess | undefined;
  const secondOutput: string[] = [];
  // Both dialer replicas run on it (the second gets the cluster's environment); every other process keeps the real clock.
  const clock = movedClock(dialerEntry);

  beforeAll(async () => {
    platform = await startTestPlatform({ VOICE_NUMBER_MONTHLY_CREDITS: '0', ...clock.env });
  }, 120_000);
  afterAll(async () => {
    if (second) await sigkill(second);
    try {
      await platform?.close();
    } finally {
      clock.close();
    }
  });

  test("200 leads: each called once, never suppressed, never while the dialers' clock is outside the window, at most max_concurrent at once; stop halts; a SIGKILLed replica loses and doubles nothing", async () => {
    const cluster = platform.running as RunningCluster;
    const { api } = platform;
    const ws = await platform.workspace({ plan: 'pro' });
    await platform.fund(ws.id, '500.0000', '0');
    const number = await buySmsNumber(api, ws.key, { enable: false });
    const assistant = await api.post('/assistants', ws.key, { name: 'Caller', first_message: 'Hello {{name}}.' });
    expect(assistant.status).toBe(201);
    second = await startSecondDialer(platform, cluster, secondOutput);
    const dialerPids = [cluster.status().campaignsDialer.pid!, second.pid!];
    // The window opens at a whole minute between 35 s ago and 25 s from now and stays open for hours:
    // close enough to its opening for the dialers' clock to be moved back before it mid-campaign.
    const opensAt = Math.floor((Date.now() + 25_000) / 60_000) * 60_000;
    const created = await api.post('/campaigns', ws.key, {
      name: 'Two hundred',
      assistant_id: assistant.body.data.id,
      from_number_ids: [number.id],
      window: windowOpeningAt(opensAt),
      pacing: { max_concurrent: maxConcurrent, calls_per_minute: 600 },
      retry: { max_attempts: 1, delay_minutes: 1, on: ['busy'] },
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    const phones = Array.from({ length: leadCount }, (_, i) => `+1500555${String(2000 + i)}`);
    const bulk = await api.post(`/campaigns/${id}/leads/bulk`, ws.key, { leads: phones.map((phone, i) => ({ phone, name: `Lead ${i}` })) });
    expect(bulk.status).toBe(200);
    // Suppressed after they were added, before the start: the dialer must ask again at dial time.
    const suppressedBefore = [phones[50]!, phones[150]!];
    for (const phone of suppressedBefore) expect((await api.post('/suppression', ws.key, { number: phone })).status).toBe(201);
    // The oldest lead is enqueued last (newest first): suppressed while the campaign runs, before its turn.
    const suppressedDuring = phones[0]!;

    const campaignCalls = async (): Promise<ListedCall[]> => {
      const calls: ListedCall[] = [];
      for (let offset = 0; ; offset += 100) {
        const page = await api.get(`/calls?limit=100&offset=${offset}`, ws.key);
        expect(page.status).toBe(200);
        calls.push(...(page.body.data as ListedCall[]));
        if (offset + 100 >= page.body.meta.pagination.total) break;
      }
      return calls.filter((call) => call.metadata.campaign_id === id);
    };
    const leads = async (): Promise<ListedLead[]> => {
      const all: ListedLead[] = [];
      for (let offset = 0; ; offset += 100) {
        const page = await api.get(`/campaigns/${id}/leads?limit=100&offset=${offset}`, ws.key);
        expect(page.status).toBe(200);
        all.push(...(page.body.data as ListedLead[]));
        if (offset + 100 >= page.body.meta.pagination.total) break;
      }
      return all;
    };
    const callsAtLeast = (count: number) => until(`${count} calls`, async () => ((await campaignCalls()).length >= count ? true : undefined));
    const campaign = async () => (await api.get(`/campaigns/${id}`, ws.key)).body.data;
    const sleepUntil = (at: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));
    /** The calls created after `at`, once `observeMs` passed after it: what the dialers still placed. */
    const callsCreatedAfter = async (at: number, observeMs: number) => {
      await sleepUntil(at + observeMs);
      return (await campaignCalls()).filter((call) => Date.parse(call.created_at) > at);
    };
    const pendingCount = async () => (await leads()).filter((lead) => lead.status === 'pending').length;
    const dialsInFlight = replicas * dialsInFlightPerReplica;

    // Run 1: the window closes mid-campaign by the dialers' clock and opens again, then the second replica is SIGKILLed mid-campaign.
    expect((await api.post(`/campaigns/${id}/start`, ws.key, {})).status).toBe(200);
    expect((await api.post('/suppression', ws.key, { number: suppressedDuring })).status).toBe(201);
    await callsAtLeast(30);
    // Closed by the dialers' clock alone, the real one in the window (the calls began at its opening):
    // moved back to closedForMs before the opening, which it then reaches by itself at reopensAt.
    const movingAt = Date.now();
    expect(movingAt).toBeGreaterThanOrEqual(opensAt);
    const closingOffsetMs = opensAt - closedForMs - movingAt;
    if (-closingOffsetMs > mostMovedMs) throw new Error(`the first 30 calls came too late after the window's opening to move the dialers' clock back before it (${-closingOffsetMs} ms)`);
    const reopensAt = opensAt - closingOffsetMs;
    await clock.move(closingOffsetMs, dialerPids);
    const closedAt = Date.now();
    await sleepUntil(closedAt + 8_000);
    const pendingWhileClosed = await pendingCount();
    expect(pendingWhileClosed).toBeGreaterThan(50);
    expect((await campaign()).status).toBe('running');
    await sleepUntil(reopensAt - 1_000);
    expect(await pendingCount()).toBe(pendingWhileClosed);
    const whileClosed = (await callsCreatedAfter(closedAt, reopensAt - closedAt)).filter((call) => Date.parse(call.created_at) < reopensAt);
    // Only dials that had passed the window's check before the move: none started later.
    expect(whileClosed.length).toBeLessThanOrEqual(dialsInFlight);
    expect(whileClosed.every((call) => Date.parse(call.created_at) < closedAt + 5_000)).toBe(true);
    // Open again by the moved clock, the window's setting unchanged: the leads held back are called.
    const calledSinceReopening = async () => (await campaignCalls()).filter((call) => Date.parse(call.created_at) >= reopensAt).length;
    await until('calls after the window opened again', async () => ((await calledSinceReopening()) >= 10 ? true : undefined));
    await sigkill(second);
    second = undefined;
    await until('calls by the remaining replica', async () => ((await calledSinceReopening()) >= 40 ? true : undefined));

    // Run 2: stopped, started again, then stopped mid-campaign.
    expect((await api.post(`/campaigns/${id}/stop`, ws.key, {})).status).toBe(200);
    const beforeRun2 = (await campaignCalls()).length;
    expect((await api.post(`/campaigns/${id}/start`, ws.key, {})).status).toBe(200);
    await callsAtLeast(beforeRun2 + 40);
    const stopped = await api.post(`/campaigns/${id}/stop`, ws.key, {});
    expect(stopped.status).toBe(200);
    const stoppedAt = Date.now();
    const afterStop = await callsCreatedAfter(stoppedAt, 8_000);
    expect(afterStop.length).toBeLessThanOrEqual(dialsInFlight);
    expect(afterStop.every((call) => Date.parse(call.created_at) < stoppedAt + 5_000)).toBe(true);
    expect((await campaign()).status).toBe('stopped');
    expect((await leads()).filter((lead) => lead.status === 'pending').length).toBeGreaterThan(0);

    // Run 3: to the end.
    expect((await api.post(`/campaigns/${id}/start`, ws.key, {})).status).toBe(200);
    await until('the campaign to complete', async () => ((await campaign()).status === 'completed' ? true : undefined), 180_000);

    const calls = await campaignCalls();
    const suppressed = new Set([...suppressedBefore, suppressedDuring]);
    // Each lead that may be called was called exactly once (one attempt each), no suppressed number ever.
    expect(calls.filter((call) => suppressed.has(call.to))).toEqual([]);
    expect(calls.map((call) => call.to).sort()).toEqual(phones.filter((phone) => !suppressed.has(phone)).sort());
    expect(new Set(calls.map((call) => call.metadata.lead_id)).size).toBe(calls.length);
    expect(calls.every((call) => call.metadata.attempt === 1 && call.ended_at !== null)).toBe(true);
    const finalLeads = await leads();
    const callsByLead = new Map(calls.map((call) => [call.metadata.lead_id!, call.id]));
    for (const lead of finalLeads) {
      if (suppressed.has(lead.phone)) expect(lead).toMatchObject({ status: 'do_not_call', attempts: 0, call_ids: [] });
      else expect(lead).toMatchObject({ status: 'completed', attempts: 1, call_ids: [callsByLead.get(lead.id)] });
    }
    // Never more at once than the pacing allows, across both replicas and the kill.
    const most = mostAtOnce(calls);
    expect(most).toBeLessThanOrEqual(maxConcurrent);
    expect(most).toBeGreaterThan(1);
    expect((await campaign()).progress.leads).toMatchObject({ completed: leadCount - 3, do_not_call: 3, pending: 0, calling: 0 });
  }, 420_000);
});
