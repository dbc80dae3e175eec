// The platform as separate processes (the built entry points under the cluster supervisor, as
// `npm run start:cluster` runs them) over the real NATS JetStream server on 127.0.0.1:4222:
// the end-to-end flows through the gateway, then billing and telephony SIGKILLed in the middle
// of a steady stream of SMS sends, billing SIGKILLed between a send's hold and its capture, and
// billing SIGKILLed in the middle of a call (charged once when it is back).
// Every accepted message must be debited exactly once, and no hold may be left open. The webhooks
// delivery worker SIGKILLed in the middle of a delivery loses no event: neither the one it was
// sending nor the ones its source streams brought while it was down.
import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deleteNamespaceStreams } from './support/nats-namespace.js';
import { clusterProcesses, startCluster } from '@voice/platform';
import { freePortsEnv } from '@voice/runtime/config';
import { newId } from '@voice/runtime/ids';
import { startTestCluster, type TestCluster } from './support/cluster.js';
import { importedSmsNumber, startFakeTwilio } from './support/fake-twilio.js';
import { balance, buySmsNumber, eventually, ledger, ledgerWith, settledBalance } from './support/telephony.js';
import { apiTool } from './support/tools.js';
import { startWebhookReceiver, verifySignature } from './support/webhook-receiver.js';

const natsUrl = 'nats://127.0.0.1:4222';
// A namespace of its own keeps this run's streams and durables apart from every other run's.
const namespace = `cluster_${newId().slice(0, 8)}`;
const destination = '+442071838750';
const units = (credits: string) => Math.round(Number(credits) * 10_000);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let platform: TestCluster;

beforeAll(async () => {
  platform = await startTestCluster({
    // Numbers are free here: this file counts SMS charges (test/number-fees.test.ts covers the monthly fees).
    VOICE_NUMBER_MONTHLY_CREDITS: '0',
    NATS_URL: natsUrl,
    VOICE_EVENT_NAMESPACE: namespace,
    VOICE_RATE_LIMITS: 'starter=100000,pro=100000,enterprise=100000',
    // Short carrier timeouts allow a short recovery age: a send cut off by the kill is settled within seconds.
    VOICE_CARRIER_TIMEOUT_MS: '1000',
    VOICE_SMS_RECOVERY_AFTER_SECONDS: '7',
    // The recovery is a periodic job: the restarted telephony takes its lease once the killed one's lapses.
    VOICE_JOB_LEASE_SECONDS: '6',
    // The Twilio-compatible carrier of the last test, and the webhook receiver, listen on loopback.
    VOICE_EGRESS_ALLOW_PRIVATE: 'true',
    // A short delivery timeout: a delivery whose worker was killed is due again 9 s later.
    VOICE_WEBHOOK_TIMEOUT_MS: '2000',
  });
}, 60_000);

afterAll(async () => {
  await platform?.close();
  await deleteNamespaceStreams(namespace, natsUrl);
}, 60_000);

test('without NATS_URL the cluster does not start, and says why', async () => {
  await expect(startCluster({ DATA_DIR: platform.dataDir })).rejects.toThrow(/NATS_URL is required in cluster mode/);
});

test('the cluster refuses the in-process transport: its processes reach each other over HTTP/2 only', async () => {
  await expect(startCluster({ DATA_DIR: platform.dataDir, NATS_URL: natsUrl, VOICE_INTERNAL_TRANSPORT: 'in-process' })).rejects.toThrow(
    /VOICE_INTERNAL_TRANSPORT is in-process, but here the parts of the platform run as processes of their own/,
  );
});

/** The pids of the processes whose environment names this DATA_DIR (the cluster's children). */
function processesWithDataDir(dataDir: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`DATA_DIR=${dataDir}`);
      } catch {
        return false;
      }
    })
    .map(Number);
}

test('a child that fails while the others start fails the start, naming it, and no process of the cluster is left', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'voice-cluster-failed-'));
  const failedNamespace = `cluster_failed_${newId().slice(0, 8)}`;
  const output: string[] = [];
  try {
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOST: '127.0.0.1',
      PORT: '0',
      ...freePortsEnv(),
      DATA_DIR: dataDir,
      NATS_URL: natsUrl,
      VOICE_EVENT_NAMESPACE: failedNamespace,
      LOG_LEVEL: 'warn',
      // Only the sandbox voice runtime reads it: that child refuses to start while the services start beside it.
      VOICE_SANDBOX_TURN_GAP_MS: '-1',
    };
    await expect(startCluster(env, { output: (_name, _stream, chunk) => output.push(chunk.toString()) })).rejects.toThrow(/voiceSandbox exited \(code 1\) before it was ready/);
    expect(output.join('')).toMatch(/VOICE_SANDBOX_TURN_GAP_MS/);
    expect(processesWithDataDir(dataDir)).toEqual([]);
    // Nor is one spawned late by a start that was still under way when the cluster stopped.
    await sleep(1_000);
    expect(processesWithDataDir(dataDir)).toEqual([]);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    await deleteNamespaceStreams(failedNamespace, natsUrl);
  }
}, 60_000);

test('each service and the gateway run as processes of their own, and the flows work end to end through the gateway', async () => {
  const pids = Object.values(platform.running.status()).map((status) => status.pid);
  // Every service, the sandbox voice runtime and the gateway.
  expect(Object.keys(platform.running.status()).sort()).toEqual(clusterProcesses.map((process) => process.name).sort());
  expect(clusterProcesses.map((process) => process.name)).toEqual(expect.arrayContaining(['identity', 'telephony', 'webhooks', 'voiceSandbox', 'calls', 'gateway']));
  expect(new Set(pids).size).toBe(clusterProcesses.length);
  expect(pids).not.toContain(process.pid);

  const me = await platform.api.get('/me', platform.rootKey);
  expect(me.status).toBe(200);
  expect(me.body.data.workspace.id).toBe(platform.rootWorkspaceId);

  // An API key, and tools with it (identity and tools).
  const customer = await platform.workspace();
  const created = await platform.api.post('/api-keys', customer.key, { name: 'cluster', scopes: ['assistants:write'] });
  expect(created.status).toBe(201);
  const toolKey: string = created.body.data.key;
  const tool = await platform.api.post('/tools', toolKey, apiTool('cluster_lookup'));
  expect(tool.status).toBe(201);
  // A gracefully restarted service comes back on its address; callers need nothing new.
  await platform.running.restart('tools');
  const tools = await platform.api.get('/tools', toolKey);
  expect(tools.status).toBe(200);
  expect(tools.body.data.map((listed: { id: string }) => listed.id)).toEqual([tool.body.data.id]);
  // An assistant, across a restart of its service (assistants).
  const assistant = await platform.api.post('/assistants', toolKey, { name: 'Cluster receptionist' });
  expect(assistant.status).toBe(201);
  await platform.running.restart('assistants');
  expect((await platform.api.get(`/assistants/${assistant.body.data.id}`, toolKey)).body.data).toEqual(assistant.body.data);

  // A white-label platform, its user, the user's token and a credit transfer (platform-users, identity, billing).
  const whiteLabel = await platform.workspace({ plan: 'enterprise', scopes: ['platform:write', 'billing:read'] });
  await platform.fund(whiteLabel.id, '50');
  const user = await platform.api.post('/platform/users', whiteLabel.key, { email: `cluster.${process.pid}@customers.example`, name: 'Cluster Customer', password: 'correct horse battery' });
  expect(user.status).toBe(201);
  const token = await platform.api.post(`/platform/users/${user.body.data.id}/token`, whiteLabel.key, {});
  expect(token.status).toBe(201);
  const userToken: string = token.body.data.access_token;
  const moved = await platform.api.post(`/platform/users/${user.body.data.id}/balance`, whiteLabel.key, { amount: '12.5' });
  expect(moved.status).toBe(201);
  expect(await balance(platform.api, whiteLabel.key)).toMatchObject({ credits: '37.5000' });
  expect(await balance(platform.api, userToken)).toMatchObject({ credits: '12.5000' });

  // A phone number, and SMS debited in the ledger (telephony → NATS → billing).
  const sender = await platform.workspace();
  await platform.fund(sender.id, '1.0000');
  const number = await buySmsNumber(platform.api, sender.key);
  const sent = [];
  for (const body of ['first', 'second']) {
    const response = await platform.api.post('/sms/send', sender.key, { from_number_id: number.id, to: destination, body });
    expect(response.status).toBe(202);
    sent.push(response.body.data.id as string);
  }
  const debits = await ledgerWith(platform.api, sender.key, 'sms.outbound', 2);
  expect(debits.map((entry) => entry.reference).sort()).toEqual([...sent].sort());
  expect(await balance(platform.api, sender.key)).toEqual(settledBalance('0.9642'));
}, 30_000);

type Outcome = { status: number; id?: string; credits?: string; phase: string; started: number; ended: number; error?: string };

/** Every message the workspace has (what telephony accepted), page by page. */
async function messages(key: string): Promise<{ id: string; credits: string }[]> {
  const all = new Map<string, { id: string; credits: string }>();
  for (let offset = 0; ; offset += 200) {
    const response = await platform.api.get(`/sms/messages?limit=200&offset=${offset}`, key);
    if (response.status !== 200) throw new Error(`messages failed: ${response.text}`);
    for (const message of response.body.data) all.set(message.id, message);
    if (offset + 200 >= response.body.meta.pagination.total) return [...all.values()];
  }
}

test('billing and then telephony SIGKILLed mid-traffic: every accepted SMS is debited exactly once, no hold stays open, and no send fails with a 500', async () => {
  const cluster = platform.running;
  const before = cluster.status();
  const outputBefore = platform.output().length;
  const workspace = await platform.workspace();
  const initial = '20.0000';
  await platform.fund(workspace.id, initial);
  const number = await buySmsNumber(platform.api, workspace.key);
  // One send through every process before the faults.
  const warmUp = await platform.api.post('/sms/send', workspace.key, { from_number_id: number.id, to: destination, body: 'warm-up' });
  expect(warmUp.status).toBe(202);
  await ledgerWith(platform.api, workspace.key, 'sms.outbound', 1);

  const outcomes: Outcome[] = [];
  let phase = 'steady';
  let accepted = 0;
  let faultsDone = false;
  const target = 150;
  const send = async (index: number) => {
    const started = Date.now();
    const at = phase;
    try {
      const response = await platform.api.post('/sms/send', workspace.key, { from_number_id: number.id, to: destination, body: `cluster ${index}` });
      const ended = Date.now();
      outcomes.push({ status: response.status, id: response.body?.data?.id, credits: response.body?.data?.credits, phase: at, started, ended, ...(response.status >= 500 ? { error: response.text } : {}) });
      return response.status;
    } catch (error) {
      outcomes.push({ status: 0, phase: at, started, ended: Date.now(), error: String(error) });
      return 0;
    }
  };
  // Four senders, each pausing a little between sends: a steady stream with a few in flight.
  let next = 0;
  const worker = async () => {
    while (accepted < target || !faultsDone) {
      const status = await send(next++);
      if (status === 202) accepted += 1;
      await sleep(status === 202 ? 15 : 40);
    }
  };
  const until = async (condition: () => boolean) => {
    while (!condition()) await sleep(5);
  };
  const timings: Record<string, number> = {};
  // When billing and telephony were killed and when each answered again.
  const billingDown = { from: Infinity, to: Infinity };
  const telephonyDown = { from: Infinity, to: Infinity };
  const faults = (async () => {
    await until(() => accepted >= 25);
    phase = 'billing killed';
    let started = Date.now();
    billingDown.from = started;
    await cluster.kill('billing', 'SIGKILL');
    // The supervisor restarts it on its own.
    await cluster.ready('billing', 15_000);
    billingDown.to = Date.now();
    timings.billingOutageMs = billingDown.to - started;
    phase = 'billing back';
    const resumed = accepted;
    await until(() => accepted >= resumed + 25);
    phase = 'telephony killed';
    started = Date.now();
    telephonyDown.from = started;
    await cluster.kill('telephony', 'SIGKILL');
    await cluster.ready('telephony', 15_000);
    telephonyDown.to = Date.now();
    timings.telephonyOutageMs = telephonyDown.to - started;
    phase = 'telephony back';
  })().finally(() => {
    faultsDone = true;
  });
  const trafficStarted = Date.now();
  await Promise.all([faults, worker(), worker(), worker(), worker()]);
  timings.trafficMs = Date.now() - trafficStarted;

  // The supervisor saw one crash of each and restarted each once.
  const after = cluster.status();
  expect(after.billing).toMatchObject({ state: 'running', crashes: before.billing.crashes + 1, restarts: before.billing.restarts + 1 });
  expect(after.telephony).toMatchObject({ state: 'running', crashes: before.telephony.crashes + 1, restarts: before.telephony.restarts + 1 });
  expect(after.gateway.pid).toBe(before.gateway.pid);

  // Sends that met the dead telephony, or that billing could not hold the price of (in flight at a
  // kill, or sent before the service was back), failed as unavailable; none failed otherwise.
  const byStatus = outcomes.reduce<Record<string, number>>((counts, outcome) => ({ ...counts, [outcome.status]: (counts[outcome.status] ?? 0) + 1 }), {});
  const unexpected = outcomes.filter((outcome) => outcome.status !== 202 && outcome.status !== 503);
  expect(unexpected).toEqual([]);
  const during = (outcome: Outcome, down: { from: number; to: number }) => outcome.ended >= down.from && outcome.started <= down.to;
  expect(outcomes.filter((outcome) => outcome.status === 503 && !during(outcome, billingDown) && !during(outcome, telephonyDown))).toEqual([]);
  const answered202 = [warmUp.body.data.id as string, ...outcomes.filter((outcome) => outcome.status === 202).map((outcome) => outcome.id!)];
  expect(new Set(answered202).size).toBe(answered202.length);

  // What telephony accepted: every 202, and possibly a message committed just before the kill whose answer was lost.
  const listed = await messages(workspace.key);
  const listedIds = new Set(listed.map((message) => message.id));
  expect(answered202.filter((id) => !listedIds.has(id))).toEqual([]);
  const unanswered = listed.filter((message) => !answered202.includes(message.id));
  expect(unanswered.length).toBeLessThanOrEqual(4);

  // The ledger settles at one debit per accepted message: none missing, none twice, none for another message.
  const settleStarted = Date.now();
  const debits = await ledgerWith(platform.api, workspace.key, 'sms.outbound', listed.length, 45_000);
  timings.settleMs = Date.now() - settleStarted;
  await sleep(1_000);
  const final = (await ledger(platform.api, workspace.key)).filter((entry) => entry.kind === 'sms.outbound');
  expect(final).toHaveLength(debits.length);
  const references = final.map((entry) => entry.reference);
  expect(new Set(references).size).toBe(references.length);
  expect([...references].sort()).toEqual([...listedIds].sort());
  for (const entry of final) expect(units(entry.credits)).toBe(-units(listed.find((message) => message.id === entry.reference)!.credits));
  const charged = listed.reduce((sum, message) => sum + units(message.credits), 0);
  expect(units((await balance(platform.api, workspace.key)).credits)).toBe(units(initial) - charged);

  // A send killed between its start and the carrier's answer leaves its message in 'sending' (never
  // listed, never charged) and its price held at billing, until the restarted telephony's recovery
  // asks the carrier (the sandbox, restarted too, took nothing) and abandons it, releasing the hold
  // through the outbox. So in the end no message waits and nothing of the wallet is held.
  const db = new Database(join(platform.dataDir, 'telephony.sqlite'), { readonly: true, fileMustExist: true });
  type Waiting = { count: number; units: number };
  const stuckSending = () =>
    db.prepare("SELECT COUNT(*) AS count, COALESCE(SUM(credit_units), 0) AS units FROM sms_messages WHERE workspace_id = ? AND status = 'sending'").get(workspace.id) as Waiting;
  const heldUnits = async () => {
    const wallet = await balance(platform.api, workspace.key);
    return units(wallet.credits) - units(wallet.available.credits);
  };
  let held: number;
  let stuck: Waiting;
  try {
    timings.heldAtSettle = await heldUnits();
    held = await eventually(async () => {
      const units = await heldUnits();
      return units === 0 && stuckSending().count === 0 ? units : undefined;
    }, Math.max(telephonyDown.from + 45_000 - Date.now(), 1_000), 'the holds to be settled').catch(() => heldUnits());
    timings.holdsSettledAfterTelephonyKillMs = Date.now() - telephonyDown.from;
    stuck = stuckSending();
  } finally {
    db.close();
  }

  const report = {
    sends: outcomes.length,
    byStatus,
    accepted: answered202.length,
    acceptedWithoutAnswer: unanswered.length,
    debits: final.length,
    charged: (charged / 10_000).toFixed(4),
    perPhase: outcomes.reduce<Record<string, Record<string, number>>>((phases, outcome) => {
      const counts = (phases[outcome.phase] ??= {});
      counts[outcome.status] = (counts[outcome.status] ?? 0) + 1;
      return phases;
    }, {}),
    slowestSendMs: Math.max(...outcomes.map((outcome) => outcome.ended - outcome.started)),
    timings,
    heldUnits: held,
    stuckSending: stuck,
    // What the processes logged at warn and error meanwhile, by process and message.
    logged: platform
      .output()
      .slice(outputBefore)
      .map((line) => {
        try {
          return JSON.parse(line) as { level?: string; service?: string; process?: string; msg?: string };
        } catch {
          return { level: 'raw', msg: line };
        }
      })
      .filter((entry) => entry.level === 'warn' || entry.level === 'error' || entry.level === 'raw' || entry.level === undefined)
      .reduce<Record<string, number>>((counts, entry) => {
        const key = `${entry.service ?? entry.process} ${entry.level} ${entry.msg}`;
        return { ...counts, [key]: (counts[key] ?? 0) + 1 };
      }, {}),
  };
  process.stdout.write(`cluster fault test: ${JSON.stringify(report)}\n`);
  expect(stuck).toEqual({ count: 0, units: 0 });
  expect(held).toBe(0);
}, 90_000);

test('billing SIGKILLed between a send\'s hold and its capture: the send is accepted, and the capture lands once when billing is back', async () => {
  const carrier = await startFakeTwilio();
  try {
    const workspace = await platform.workspace();
    await platform.fund(workspace.id, '1.0000');
    const imported = await importedSmsNumber(platform.api, workspace.key, carrier, '+14155550172');
    // The carrier takes the message at once and answers a little later (within the carrier
    // timeout of this cluster): billing is killed meanwhile.
    carrier.answerDelayMs = 600;
    const sending = platform.api.post('/sms/send', workspace.key, { from_number_id: imported.id, to: destination, body: 'Held, then billing died' });
    await eventually(async () => (carrier.sentMessages().length === 1 ? true : undefined), 5_000, 'the carrier to take the message');
    let accepted;
    try {
      await platform.running.kill('billing', 'SIGKILL');
      accepted = await sending;
    } finally {
      await platform.running.ready('billing', 15_000);
    }
    expect(accepted.status).toBe(202);

    const [debit] = await ledgerWith(platform.api, workspace.key, 'sms.outbound', 1, 30_000);
    expect(debit).toMatchObject({ reference: accepted.body.data.id, credits: '-0.0100' });
    await sleep(1_000);
    expect((await ledger(platform.api, workspace.key)).filter((entry) => entry.kind === 'sms.outbound')).toHaveLength(1);
    expect(await balance(platform.api, workspace.key)).toEqual(settledBalance('0.9900'));
    expect(carrier.sentMessages()).toHaveLength(1);
  } finally {
    await carrier.close();
  }
}, 60_000);

test('a send cut off by SIGKILL after the carrier took it is recovered: listed, billed once, replayed under its key', async () => {
  const carrier = await startFakeTwilio();
  try {
    const workspace = await platform.workspace();
    await platform.fund(workspace.id, '1.0000');
    const imported = await importedSmsNumber(platform.api, workspace.key, carrier, '+14155550171');

    // The carrier takes the message but its answer never arrives: telephony is killed while it waits.
    carrier.mode = 'accept_silently';
    const body = { from_number_id: imported.id, to: destination, body: 'Cut off mid-send' };
    const headers = { 'Idempotency-Key': 'cut-off-by-sigkill' };
    const sending = platform.api.post('/sms/send', workspace.key, body, { headers });
    await eventually(async () => (carrier.sentMessages().length > 0 ? true : undefined), 5_000, 'the carrier to receive the message');
    await platform.running.kill('telephony', 'SIGKILL');
    expect((await sending).status).toBe(503);
    await platform.running.ready('telephony', 15_000);
    carrier.mode = 'ok';

    // The restarted telephony finds the send waiting after the recovery age, and the carrier's record of it.
    const listed = await eventually(async () => {
      const response = await platform.api.get('/sms/messages', workspace.key);
      return response.body.meta.pagination.total === 1 ? response.body.data[0] : undefined;
    }, 30_000, 'the recovered message');
    expect(listed).toMatchObject({ status: 'queued', body: 'Cut off mid-send', credits: '0.0100' });
    const [debit] = await ledgerWith(platform.api, workspace.key, 'sms.outbound', 1);
    expect(debit).toMatchObject({ reference: listed.id, credits: '-0.0100' });

    const retry = await platform.api.post('/sms/send', workspace.key, body, { headers });
    expect(retry.status).toBe(202);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.data).toMatchObject({ id: listed.id, status: 'queued' });
    // Sent once: the retry did not reach the carrier again.
    expect(carrier.sentMessages()).toHaveLength(1);
    await sleep(500);
    expect((await ledger(platform.api, workspace.key)).filter((entry) => entry.kind === 'sms.outbound')).toHaveLength(1);
  } finally {
    await carrier.close();
  }
}, 60_000);

test('billing SIGKILLed mid-call: the call ends, and its minutes are charged exactly once when billing is back', async () => {
  const workspace = await platform.workspace({ plan: 'pro' });
  await platform.fund(workspace.id, '1.0000');
  const number = await buySmsNumber(platform.api, workspace.key, { enable: false });
  const assistant = await platform.api.post('/assistants', workspace.key, { name: 'Caller', first_message: 'Hello, this is Acme.', end_call: { max_duration_seconds: 300 } });
  expect(assistant.status).toBe(201);
  // The sandbox runtime keeps the call going for a few seconds: long enough to kill billing while it runs.
  const script = [{ say: 'Hello, this is Acme.' }, { reply: 'Hi there' }, { pause_ms: 3_000 }, { hangup: 'caller' }];
  const placed = await platform.api.post('/calls', workspace.key, { assistant_id: assistant.body.data.id, from: number.number, to: '+14155550123', metadata: { sandbox_script: script } });
  expect(placed.status).toBe(201);
  const callId = placed.body.data.id as string;
  await eventually(async () => ((await platform.api.get(`/calls/${callId}`, workspace.key)).body.data.status === 'in_progress' ? true : undefined), 15_000, 'the call to be answered');
  try {
    await platform.running.kill('billing', 'SIGKILL');
  } finally {
    await platform.running.ready('billing', 15_000);
  }

  const [debit] = await ledgerWith(platform.api, workspace.key, 'call.minutes', 1, 30_000);
  const call = (await platform.api.get(`/calls/${callId}`, workspace.key)).body.data;
  expect(call).toMatchObject({ status: 'completed', credits_charged: '0.1000', minutes_charged: '0.000' });
  expect(debit).toMatchObject({ reference: callId, credits: '-0.1000' });
  // A redelivered usage event after billing's restart charges nothing more, and the hold is gone.
  await sleep(1_000);
  expect((await ledger(platform.api, workspace.key)).filter((entry) => entry.kind === 'call.minutes')).toHaveLength(1);
  expect(await balance(platform.api, workspace.key)).toEqual(settledBalance('0.9000'));
}, 60_000);

test('the webhooks delivery worker SIGKILLed mid-delivery loses no event: the one in flight is sent again, the ones that came meanwhile follow', async () => {
  const receiver = await startWebhookReceiver();
  try {
    const workspace = await platform.workspace();
    const created = await platform.api.post('/api/v1/webhooks', workspace.key, { url: receiver.url, event_types: ['balance.low'] });
    expect(created.status).toBe(201);
    const endpoint = created.body.data;
    expect((await platform.api.patch('/api/v1/settings/webhooks', workspace.key, { balance_low_threshold: '100' })).status).toBe(200);

    // The receiver holds the ping unanswered: the worker is killed while it waits.
    receiver.answer('hang');
    const ping = (await platform.api.post(`/api/v1/webhooks/${endpoint.id}/test`, workspace.key, {})).body.data;
    await eventually(async () => (receiver.received.some((request) => request.event.id === ping.event_id) ? true : undefined), 10_000, 'the ping to arrive');
    await platform.running.kill('webhooksDelivery', 'SIGKILL');
    receiver.answer(200);
    // While it is down, a wallet change takes the balance below the threshold.
    await platform.fund(workspace.id, '1.0000');
    await platform.running.ready('webhooksDelivery', 15_000);

    const low = await eventually(async () => receiver.received.find((request) => request.event.type === 'balance.low' && request.event.data.threshold === '100.0000'), 30_000, 'balance.low');
    expect(low.event.data).toEqual({ available: '1.0000', threshold: '100.0000' });
    expect(await verifySignature(low.rawBody, low.headers['voice-signature'] as string, endpoint.secret)).toBe(true);
    const delivered = await eventually(async () => {
      const [delivery] = (await platform.api.get(`/api/v1/webhooks/${endpoint.id}/deliveries?status=delivered&limit=10`, workspace.key)).body.data.filter(
        (each: { event_id: string }) => each.event_id === ping.event_id,
      );
      return delivery;
    }, 30_000, 'the ping delivered again');
    expect(delivered.attempts.at(-1)).toMatchObject({ status_code: 200 });
    expect(receiver.received.filter((request) => request.event.id === ping.event_id).length).toBeGreaterThanOrEqual(2);
    expect(receiver.received.filter((request) => request.event.type === 'balance.low')).toHaveLength(1);
  } finally {
    await receiver.close();
  }
}, 90_000);
