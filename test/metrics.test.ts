// The platform's one Prometheus endpoint, read the way Prometheus reads it after real traffic:
// gateway routes by template, the services' RPCs by method and code, the billing consumer's event
// lag, process metrics; and nothing of it on the gateway's public port.
import { randomUUID } from 'node:crypto';
import { inProcess, startTestPlatform, type TestPlatform } from './support/platform.js';
import { buySmsNumber, eventually, ledgerWith } from './support/telephony.js';

let platform: TestPlatform;

beforeAll(async () => {
  // Numbers are free here: this file counts SMS charges (test/number-fees.test.ts covers the monthly fees).
  platform = await startTestPlatform({ VOICE_METRICS_PORT: '0', VOICE_NUMBER_MONTHLY_CREDITS: '0' });
});
afterAll(() => platform.close());

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a text exposition (label values here hold no escaped quotes). */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not an exposition line: ${line}`);
    const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((label) => [label[1]!, label[2]!]));
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

async function scrape(): Promise<Sample[]> {
  const response = await fetch(inProcess(platform).metricsUrl!);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  return parseExposition(await response.text());
}

/** The value of the one sample with exactly these labels (undefined when there is none). */
function valueOf(samples: Sample[], name: string, labels: Record<string, string>): number | undefined {
  const found = samples.filter(
    (sample) => sample.name === name && Object.keys(sample.labels).length === Object.keys(labels).length && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  expect(found.length).toBeLessThanOrEqual(1);
  return found[0]?.value;
}

test('the metrics URL is a loopback port of its own', () => {
  expect(inProcess(platform).metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
  expect(new URL(inProcess(platform).metricsUrl!).port).not.toBe(String(platform.running.port));
});

test('after an SMS send and a few other calls: routes by template, RPCs by code, the event lag of billing', async () => {
  const workspace = await platform.workspace();
  await platform.fund(workspace.id, '1.0000');
  const number = await buySmsNumber(platform.api, workspace.key);
  const sent = await platform.api.post('/sms/send', workspace.key, { from_number_id: number.id, to: '+442071838750', body: 'Metrics, please.' });
  expect(sent.status).toBe(202);
  const missingTool = randomUUID();
  expect((await platform.api.get(`/tools/${missingTool}`, workspace.key)).status).toBe(404);
  expect((await fetch(`${platform.running.url}/no/such/${randomUUID()}`)).status).toBe(404);
  // Billing has applied the SMS's usage event once its ledger shows the debit.
  await ledgerWith(platform.api, workspace.key, 'sms.outbound', 1);

  const samples = await scrape();
  expect(valueOf(samples, 'http_server_requests_total', { method: 'POST', route: '/api/v1/sms/send', status: '202' })).toBeGreaterThanOrEqual(1);
  expect(valueOf(samples, 'http_server_requests_total', { method: 'GET', route: '/api/v1/tools/:id', status: '404' })).toBeGreaterThanOrEqual(1);
  expect(valueOf(samples, 'http_server_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
  expect(valueOf(samples, 'http_server_request_duration_seconds_count', { method: 'POST', route: '/api/v1/sms/send', status: '202' })).toBeGreaterThanOrEqual(1);
  // Templates only: no id of a request ever becomes a label value.
  const routes = new Set(samples.filter((sample) => sample.name === 'http_server_requests_total').map((sample) => sample.labels.route!));
  for (const route of routes) expect(route === 'unmatched' || !/[0-9a-f]{8}-[0-9a-f]{4}-/.test(route)).toBe(true);

  const rpc = (service: string, method: string, code: string) =>
    valueOf(samples, 'rpc_server_requests_total', { service, method, code });
  expect(rpc('telephony', 'voice.telephony.v1.TelephonyService/SendSms', 'ok')).toBeGreaterThanOrEqual(1);
  expect(rpc('tools', 'voice.tools.v1.ToolsService/GetTool', 'not_found')).toBeGreaterThanOrEqual(1);
  expect(rpc('billing', 'voice.billing.v1.BillingService/Transfer', 'ok')).toBeGreaterThanOrEqual(1);
  expect(
    valueOf(samples, 'rpc_server_request_duration_seconds_count', { service: 'telephony', method: 'voice.telephony.v1.TelephonyService/SendSms', code: 'ok' }),
  ).toBeGreaterThanOrEqual(1);

  expect(valueOf(samples, 'event_consumer_lag_seconds_count', { consumer: 'billing-usage', stream: 'USAGE' })).toBeGreaterThanOrEqual(1);
  expect(valueOf(samples, 'event_consumer_events_total', { consumer: 'billing-usage', outcome: 'applied' })).toBeGreaterThanOrEqual(1);
  // The SMS's price was held at billing before the carrier was asked.
  expect(rpc('billing', 'voice.billing.v1.BillingService/Authorize', 'ok')).toBeGreaterThanOrEqual(1);

  // One process, one set of process metrics.
  expect(valueOf(samples, 'process_cpu_user_seconds_total', { service: 'platform' })).toBeGreaterThan(0);
});

test('every service runs its pruning job: one run each at start, counted by job', async () => {
  const jobs = ['identity', 'tools', 'telephony', 'billing', 'platform-users', 'assistants', 'calls', 'webhooks'].map((service) => `${service}.retention`);
  const samples = await eventually(async () => {
    const scraped = await scrape();
    return jobs.every((job) => (valueOf(scraped, 'periodic_job_runs_total', { job }) ?? 0) >= 1) ? scraped : undefined;
  }, 30_000, 'a run of every pruning job');
  for (const job of jobs) expect(valueOf(samples, 'periodic_job_failures_total', { job })).toBeUndefined();
});

test('the metrics server answers only /metrics; the gateway does not serve metrics', async () => {
  const base = new URL(inProcess(platform).metricsUrl!);
  expect((await fetch(new URL('/', base))).status).toBe(404);
  expect((await fetch(new URL('/metrics/extra', base))).status).toBe(404);
  expect((await fetch(base, { method: 'POST' })).status).toBe(405);
  expect((await fetch(`${platform.running.url}/metrics`)).status).toBe(404);
});
