// The built-in sandbox carrier: its inventory, purchase rules, delivery reports, magic
// destinations, A2P vetting and callback signatures; plus carrierFor choosing adapters.
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { CarrierRejected, CarrierUnavailable, NumberNotAvailable } from '../src/carriers/carrier.js';
import { carrierFor, CircuitBreakers } from '../src/carriers/registry.js';
import { sandboxCountries } from '../src/carriers/sandbox-inventory.js';
import { SandboxCarrier, sandboxDestinations, type DeliveryReport, type SandboxCarrierOptions } from '../src/carriers/sandbox.js';
import { TwilioCompatibleCarrier, twilioSignature } from '../src/carriers/twilio.js';

const account = { accountSid: 'sandbox-account', authToken: 'sandbox-token' };
const sandboxes: SandboxCarrier[] = [];
const voice = { voiceUrl: 'https://voice.example/webhooks/carriers/platform/voice', statusCallbackUrl: 'https://voice.example/webhooks/carriers/platform/voice/status' };
afterEach(() => {
  for (const sandbox of sandboxes.splice(0)) sandbox.close();
});

function sandbox(options: Partial<SandboxCarrierOptions> = {}, credentials = account) {
  const reports: [string, DeliveryReport][] = [];
  const carrier = new SandboxCarrier(credentials, {
    onDelivery: (id, report) => reports.push([id, report]),
    onCallProgress: async () => undefined,
    sentAfterMs: 1,
    finalAfterMs: 1,
    ...options,
  });
  sandboxes.push(carrier);
  return { carrier, reports };
}

function waitFor(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const check = () => {
      if (condition()) return resolve();
      if (Date.now() - started > timeoutMs) return reject(new Error('condition not met in time'));
      setTimeout(check, 2);
    };
    check();
  });
}

const caught = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as Error);

describe('inventory', () => {
  test.each(['US', 'CA', 'GB', 'DE', 'FR', 'AU'])('%s has valid, SMS- and voice-capable numbers of that country', async (country) => {
    const { carrier } = sandbox();
    const offers = await carrier.searchAvailable({ country, limit: 20 });
    expect(offers).toHaveLength(20);
    expect(new Set(offers.map((offer) => offer.number)).size).toBe(20);
    for (const offer of offers) {
      expect(offer).toMatchObject({ country, smsCapable: true, voiceCapable: true });
      const parsed = parsePhoneNumberFromString(offer.number);
      expect(parsed?.isValid()).toBe(true);
      expect(parsed?.country).toBe(country);
    }
  });

  test('the six required countries are stocked', () => {
    expect(sandboxCountries).toEqual(expect.arrayContaining(['US', 'CA', 'GB', 'DE', 'FR', 'AU']));
  });

  test('deterministic: the same search gives the same numbers, in any sandbox', async () => {
    const first = await sandbox().carrier.searchAvailable({ country: 'US', areaCode: '212', limit: 10 });
    const second = await sandbox({}, { accountSid: 'other', authToken: 'other' }).carrier.searchAvailable({ country: 'US', areaCode: '212', limit: 10 });
    expect(second).toEqual(first);
  });

  test('an area code narrows NANP searches', async () => {
    const { carrier } = sandbox();
    const sanFrancisco = await carrier.searchAvailable({ country: 'US', areaCode: '415', limit: 5 });
    expect(sanFrancisco).toHaveLength(5);
    for (const offer of sanFrancisco) expect(offer.number.startsWith('+1415')).toBe(true);
    const toronto = await carrier.searchAvailable({ country: 'CA', areaCode: '416', limit: 5 });
    expect(toronto.every((offer) => offer.number.startsWith('+1416') && offer.country === 'CA')).toBe(true);
    await expect(carrier.searchAvailable({ country: 'US', areaCode: '416', limit: 5 })).resolves.toEqual([]);
    await expect(carrier.searchAvailable({ country: 'US', areaCode: '800', limit: 5 })).resolves.toEqual([]);
  });

  test('elsewhere an area code keeps the stocked numbers that start with it', async () => {
    const { carrier } = sandbox();
    const all = await carrier.searchAvailable({ country: 'GB', limit: 100 });
    const prefix = all[0]!.number.slice(3, 7);
    await expect(carrier.searchAvailable({ country: 'GB', areaCode: prefix, limit: 100 })).resolves.toEqual(all);
    await expect(carrier.searchAvailable({ country: 'GB', areaCode: '20', limit: 100 })).resolves.toEqual([]);
  });

  test('a country it does not stock has no numbers; the limit is respected', async () => {
    const { carrier } = sandbox();
    await expect(carrier.searchAvailable({ country: 'BR', limit: 5 })).resolves.toEqual([]);
    await expect(carrier.searchAvailable({ country: 'US', limit: 0 })).resolves.toEqual([]);
    await expect(carrier.searchAvailable({ country: 'fr', limit: 3 })).resolves.toHaveLength(3);
  });
});

describe('purchase, release, lookup', () => {
  test('numbers it offers can be bought, with both capabilities', async () => {
    const { carrier } = sandbox();
    for (const search of [{ country: 'US', areaCode: '303' }, { country: 'US' }, { country: 'CA' }, { country: 'GB' }, { country: 'DE' }, { country: 'AU' }]) {
      const [first] = await carrier.searchAvailable({ ...search, limit: 1 });
      await expect(carrier.purchaseNumber(first!.number, voice)).resolves.toEqual({ smsCapable: true, voiceCapable: true });
    }
  });

  test('anything else is NumberNotAvailable', async () => {
    const { carrier } = sandbox();
    const last = (await carrier.searchAvailable({ country: 'US', areaCode: '415', limit: 100 })).at(-1)!.number;
    const beyond = `+1415${String(Number(last.slice(5)) + 1)}`;
    for (const number of [beyond, '+18005550123', '+5511987654321', 'not a number', '+15005550009']) {
      const error = await caught(carrier.purchaseNumber(number, voice));
      expect(error).toBeInstanceOf(NumberNotAvailable);
    }
  });

  test('release is a no-op; any valid number is held by a sandbox account and can be imported', async () => {
    const { carrier } = sandbox();
    await expect(carrier.releaseNumber('+14155550123')).resolves.toBeUndefined();
    await expect(carrier.importNumber('+14155550123', voice)).resolves.toEqual({ smsCapable: true, voiceCapable: true });
    await expect(carrier.importNumber('+4930123456', voice)).resolves.toEqual({ smsCapable: true, voiceCapable: true });
    await expect(carrier.importNumber('+1111', voice)).resolves.toBeUndefined();
  });
});

describe('sendSms', () => {
  const from = '+14155550100';

  test('accepts, returns an SM id, then reports sent and delivered', async () => {
    const { carrier, reports } = sandbox();
    const { carrierMessageId } = await carrier.sendSms({ from, to: '+14155550199', body: 'hi' });
    expect(carrierMessageId).toMatch(/^SM[0-9a-f]{32}$/);
    expect(reports).toEqual([]);
    await waitFor(() => reports.length === 2);
    expect(reports).toEqual([
      [carrierMessageId, { status: 'sent' }],
      [carrierMessageId, { status: 'delivered' }],
    ]);
  });

  test('every message gets its own id', async () => {
    const { carrier } = sandbox();
    const ids = await Promise.all([1, 2, 3].map(() => carrier.sendSms({ from, to: '+14155550199', body: 'hi' })));
    expect(new Set(ids.map((accepted) => accepted.carrierMessageId)).size).toBe(3);
  });

  test('the reports wait for the configured delays', async () => {
    const { carrier, reports } = sandbox({ sentAfterMs: 60, finalAfterMs: 60 });
    const started = Date.now();
    await carrier.sendSms({ from, to: '+14155550199', body: 'hi' });
    await waitFor(() => reports.length === 1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
    await waitFor(() => reports.length === 2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
  });

  test('close() cancels pending reports and refuses further messages', async () => {
    const { carrier, reports } = sandbox({ sentAfterMs: 20 });
    await carrier.sendSms({ from, to: '+14155550199', body: 'hi' });
    carrier.close();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(reports).toEqual([]);
    expect(await caught(carrier.sendSms({ from, to: '+14155550199', body: 'hi' }))).toBeInstanceOf(CarrierUnavailable);
  });

  test(`${sandboxDestinations.invalid} is refused as an invalid destination`, async () => {
    const { carrier, reports } = sandbox();
    const error = await caught(carrier.sendSms({ from, to: sandboxDestinations.invalid, body: 'hi' }));
    expect(error).toBeInstanceOf(CarrierRejected);
    expect((error as CarrierRejected).kind).toBe('destination');
    expect(error?.message).toMatch(/not a valid phone number/);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reports).toEqual([]);
  });

  test(`${sandboxDestinations.blocked} is refused as blocked`, async () => {
    const { carrier } = sandbox();
    const error = await caught(carrier.sendSms({ from, to: sandboxDestinations.blocked, body: 'hi' }));
    expect((error as CarrierRejected).kind).toBe('destination');
    expect(error?.message).toMatch(/blocked/);
  });

  test(`${sandboxDestinations.undeliverable} is accepted, then reported failed`, async () => {
    const { carrier, reports } = sandbox();
    const { carrierMessageId } = await carrier.sendSms({ from, to: sandboxDestinations.undeliverable, body: 'hi' });
    await waitFor(() => reports.length === 2);
    expect(reports).toEqual([
      [carrierMessageId, { status: 'sent' }],
      [carrierMessageId, { status: 'failed', failureReason: 'destination cannot receive SMS' }],
    ]);
  });

  test('the magic destinations are numbers libphonenumber accepts', () => {
    for (const number of Object.values(sandboxDestinations)) expect(parsePhoneNumberFromString(number)?.isValid()).toBe(true);
  });

  test('an invalid sender or destination is refused', async () => {
    const { carrier } = sandbox();
    expect(((await caught(carrier.sendSms({ from: 'x', to: '+14155550199', body: 'hi' }))) as CarrierRejected).kind).toBe('request');
    expect(((await caught(carrier.sendSms({ from, to: '+1111', body: 'hi' }))) as CarrierRejected).kind).toBe('destination');
  });
});

describe('findSentSms', () => {
  test('finds the messages it took with that sender, destination and body since the instant, oldest first', async () => {
    const { carrier } = sandbox();
    const before = new Date(Date.now() - 1000).toISOString();
    const message = { from: '+14155550100', to: '+442071838750', body: 'Your code is 1234' };
    const first = await carrier.sendSms(message);
    await carrier.sendSms({ ...message, body: 'another text' });
    await carrier.sendSms({ ...message, to: '+442071838751' });
    const second = await carrier.sendSms(message);
    await expect(carrier.findSentSms({ ...message, notBefore: before })).resolves.toEqual([first.carrierMessageId, second.carrierMessageId]);
    await expect(carrier.findSentSms({ ...message, notBefore: new Date(Date.now() + 60_000).toISOString() })).resolves.toEqual([]);
    // Another sandbox (the process restarted) took nothing.
    await expect(sandbox().carrier.findSentSms({ ...message, notBefore: before })).resolves.toEqual([]);
  });
});

describe('connection test and A2P vetting', () => {
  test('the connection works when the auth token is not empty', async () => {
    await expect(sandbox().carrier.testConnection()).resolves.toEqual({ ok: true });
    await expect(sandbox({}, { accountSid: 'a', authToken: ' ' }).carrier.testConnection()).resolves.toMatchObject({
      ok: false,
      failure: 'authentication_failed',
    });
  });

  const campaign = {
    id: 'c1',
    name: 'Appointment reminders',
    useCase: 'customer_care',
    description: 'Reminders of upcoming appointments sent to patients who opted in.',
    sampleMessages: ['Hi Ann, your appointment is tomorrow at 10:00. Reply STOP to opt out.'],
  };

  test('approved at once with a 40-character description and a sample message', async () => {
    const { carrier } = sandbox();
    await expect(carrier.submitA2pCampaign(campaign)).resolves.toEqual({ status: 'approved' });
    await expect(carrier.submitA2pCampaign({ ...campaign, description: 'd'.repeat(40) })).resolves.toEqual({ status: 'approved' });
  });

  test('rejected, saying why, otherwise', async () => {
    const { carrier } = sandbox();
    await expect(carrier.submitA2pCampaign({ ...campaign, description: 'd'.repeat(39) })).resolves.toEqual({
      status: 'rejected',
      reason: 'the description must have at least 40 characters',
    });
    await expect(carrier.submitA2pCampaign({ ...campaign, sampleMessages: [] })).resolves.toEqual({
      status: 'rejected',
      reason: 'at least one sample message is required',
    });
    await expect(carrier.submitA2pCampaign({ ...campaign, description: `   ${'d'.repeat(30)}   `, sampleMessages: ['  '] })).resolves.toEqual({
      status: 'rejected',
      reason: 'the description must have at least 40 characters; at least one sample message is required',
    });
  });
});

describe('callbacks', () => {
  test('verified with the Twilio scheme and the account token', () => {
    const { carrier } = sandbox();
    const url = 'https://voice.example/webhooks/carriers/c1';
    const params = { MessageSid: 'SM1', MessageStatus: 'delivered' };
    expect(carrier.verifyCallback({ url, params, signature: twilioSignature(account.authToken, url, params) })).toBe(true);
    expect(carrier.verifyCallback({ url, params, signature: twilioSignature('another token', url, params) })).toBe(false);
    expect(carrier.verifyCallback({ url, params: { ...params, MessageStatus: 'failed' }, signature: twilioSignature(account.authToken, url, params) })).toBe(false);
  });
});

describe('carrierFor', () => {
  const options = { breakers: new CircuitBreakers(), allowPrivate: false, onDelivery: () => undefined, onCallProgress: async () => undefined };

  test('builds the adapter of the provider', () => {
    const sandboxAdapter = carrierFor({ provider: 'sandbox', ...account }, options);
    expect(sandboxAdapter).toBeInstanceOf(SandboxCarrier);
    (sandboxAdapter as SandboxCarrier).close();
    expect(carrierFor({ provider: 'twilio', baseUrl: 'https://api.twilio.com', ...account }, options)).toBeInstanceOf(TwilioCompatibleCarrier);
  });

  test('the sandbox reports through onDelivery', async () => {
    const reports: string[] = [];
    const adapter = carrierFor({ provider: 'sandbox', ...account }, { ...options, onDelivery: (_id, report) => reports.push(report.status), sandbox: { sentAfterMs: 1, finalAfterMs: 1 } });
    await adapter.sendSms({ from: '+14155550100', to: '+14155550199', body: 'hi' });
    await waitFor(() => reports.length === 2);
    expect(reports).toEqual(['sent', 'delivered']);
  });
});
