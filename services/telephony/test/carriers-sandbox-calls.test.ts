// The sandbox carrier's calls on their own: the time limit, a voice runtime that cannot be reached,
// none configured, close() hanging up what is in progress without reporting more, and a received call.
import type { LegChange } from '../src/domain/call-legs.js';
import { SandboxCalls, type SandboxCallOptions } from '../src/carriers/sandbox-calls.js';
import { eventually } from '../../../test/support/telephony.js';
import { closedPort } from './support-carrier/twilio-server.js';
import { startMediaReceiver, type MediaReceiver } from './support-carrier/media-receiver.js';

let runtime: MediaReceiver;
beforeAll(async () => {
  runtime = await startMediaReceiver();
});
afterAll(() => runtime.close());

const opened: SandboxCalls[] = [];
afterEach(() => {
  for (const calls of opened.splice(0)) calls.close();
});

function sandbox(options: Partial<SandboxCallOptions> = {}) {
  const reports: LegChange[] = [];
  const calls = new SandboxCalls('ACsandbox', { onCallProgress: async (_legId, change) => void reports.push(change), ringAfterMs: 1, answerAfterMs: 1, ...options });
  opened.push(calls);
  return { calls, reports };
}

const leg = (overrides: Partial<Parameters<SandboxCalls['place']>[0]> = {}) => ({
  legId: 'leg-1',
  from: '+14155550100',
  to: '+14155550199',
  maxDurationSeconds: 600,
  mediaParameters: { call_id: `call-${Math.random()}` },
  instructionsUrl: 'https://voice.example/twiml',
  statusCallbackUrl: 'https://voice.example/status',
  recordingStatusCallbackUrl: 'https://voice.example/recording',
  ...overrides,
});

const ended = (reports: LegChange[]) => eventually(async () => reports.find((report) => !['ringing', 'in_progress'].includes(report.status)), 5_000, 'the end report');

test('the time limit hangs the call up: stop to the runtime, completed with the answered seconds', async () => {
  const { calls, reports } = sandbox({ mediaUrl: runtime.url });
  const placed = leg({ maxDurationSeconds: 1 });
  await calls.place(placed);
  const end = await ended(reports);
  expect(end).toMatchObject({ status: 'completed', durationSeconds: 1 });
  expect(reports.map((report) => report.status)).toEqual(['ringing', 'in_progress', 'completed']);
  const stream = runtime.streams.find((each) => each.customParameters?.call_id === placed.mediaParameters.call_id)!;
  await eventually(async () => (stream.closed ? true : undefined));
  expect(stream.messages.at(-1)).toMatchObject({ event: 'stop' });
});

test('a runtime that cannot be reached fails the answered call', async () => {
  const { calls, reports } = sandbox({ mediaUrl: `ws://127.0.0.1:${await closedPort()}/media` });
  await calls.place(leg());
  expect(await ended(reports)).toMatchObject({ status: 'failed', failureReason: "the call's media could not be connected to the voice runtime" });
});

test('without a runtime an answered call fails', async () => {
  const { calls, reports } = sandbox();
  await calls.place(leg());
  expect(await ended(reports)).toMatchObject({ status: 'failed' });
});

test('close() hangs up calls in progress and reports nothing more; a closed sandbox refuses calls', async () => {
  const { calls, reports } = sandbox({ mediaUrl: runtime.url });
  const placed = leg();
  await calls.place(placed);
  const stream = await eventually(async () => runtime.streams.find((each) => each.customParameters?.call_id === placed.mediaParameters.call_id), 5_000, 'the stream');
  calls.close();
  await eventually(async () => (stream.closed ? true : undefined));
  expect(reports.map((report) => report.status)).toEqual(['ringing', 'in_progress']);
  await expect(calls.place(leg())).rejects.toThrow('closed');
});

test('a received call is picked up without ringing again, streams its media parameters, and can be hung up by the platform', async () => {
  const { calls, reports } = sandbox({ mediaUrl: runtime.url });
  const mediaParameters = { call_id: `inbound-${Math.random()}`, session_token: 'token' };
  calls.receive({ legId: 'leg-in', carrierCallId: 'CAinbound', maxDurationSeconds: 600, mediaParameters });
  const stream = await eventually(async () => runtime.streams.find((each) => each.customParameters?.call_id === mediaParameters.call_id), 5_000, 'the stream');
  expect(stream.customParameters).toEqual(mediaParameters);
  await calls.end('CAinbound');
  expect(await ended(reports)).toMatchObject({ status: 'completed' });
  expect(reports.map((report) => report.status)).toEqual(['in_progress', 'completed']);
  calls.close();
  expect(() => calls.receive({ legId: 'leg-late', carrierCallId: 'CAlate', maxDurationSeconds: 600, mediaParameters })).toThrow('closed');
});
