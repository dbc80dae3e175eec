// The Twilio-compatible adapter against a Twilio-shaped API on loopback: request shapes, answers,
// failure mapping, timeouts, retries only where safe, the shared circuit breaker, and signatures.
import { createHmac } from 'node:crypto';
import { CarrierRejected, CarrierUnavailable, NumberNotAvailable, type CarrierAdapter } from '../src/carriers/carrier.js';
import { CircuitBreakers } from '../src/carriers/resilience/circuit-breaker.js';
import { TwilioCompatibleCarrier, twilioSignature, type TwilioCarrierOptions } from '../src/carriers/twilio.js';
import { closedPort, startFakeTwilio, twilioError, type FakeTwilio, type ReceivedRequest } from './support-carrier/twilio-server.js';

const accountSid = 'AC0123456789abcdef0123456789abcdef';
const authToken = 'f00dfeedf00dfeedf00dfeedf00dfeed';
const accountPath = `/2010-04-01/Accounts/${accountSid}`;

let twilio: FakeTwilio;
beforeEach(async () => {
  twilio = await startFakeTwilio();
});
afterEach(() => twilio.close());

const carrier = (options: Partial<TwilioCarrierOptions> = {}, account: { baseUrl?: string; accountSid?: string } = {}) =>
  new TwilioCompatibleCarrier(
    { baseUrl: account.baseUrl ?? twilio.baseUrl, accountSid: account.accountSid ?? accountSid, authToken },
    { breakers: new CircuitBreakers(), allowPrivate: true, retryBaseDelayMs: 5, ...options },
  );

const message = { from: '+14155550100', to: '+14155550199', body: 'Hello & welcome = 100%', statusCallbackUrl: 'https://voice.example/webhooks/carriers/c1' };
const accepted = { status: 201, json: { sid: 'SM0123456789abcdef0123456789abcdef', status: 'queued' } };
const caught = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as Error);

/** Answers with the replies in order, repeating the last. */
function inTurn(...replies: ReturnType<FakeTwilio['handle']>[]): FakeTwilio['handle'] {
  let next = 0;
  return () => replies[Math.min(next++, replies.length - 1)]!;
}

describe('sendSms', () => {
  test('posts the message form-encoded with basic auth and returns the carrier sid', async () => {
    twilio.handle = () => accepted;
    await expect(carrier().sendSms(message)).resolves.toEqual({ carrierMessageId: 'SM0123456789abcdef0123456789abcdef' });

    expect(twilio.received).toHaveLength(1);
    const request = twilio.received[0]!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe(`${accountPath}/Messages.json`);
    expect(request.headers['authorization']).toBe(`Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`);
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request.form).toEqual({ From: message.from, To: message.to, Body: message.body, StatusCallback: message.statusCallbackUrl });
    expect(request.body).toContain('Body=Hello+%26+welcome+%3D+100%25');
  });

  test('leaves StatusCallback out when there is none', async () => {
    twilio.handle = () => accepted;
    await carrier().sendSms({ from: message.from, to: message.to, body: 'hi' });
    expect(twilio.received[0]!.form).toEqual({ From: message.from, To: message.to, Body: 'hi' });
  });

  test('a base URL with a trailing slash or path prefix is joined correctly', async () => {
    twilio.handle = () => accepted;
    await carrier({}, { baseUrl: `${twilio.baseUrl}/proxy/` }).sendSms(message);
    expect(twilio.received[0]!.path).toBe(`/proxy${accountPath}/Messages.json`);
  });

  test.each([500, 502, 503, 504])('a %i is CarrierUnavailable', async (status) => {
    twilio.handle = () => ({ status, json: { message: 'server error' } });
    const error = await caught(carrier({ retries: 0 }).sendSms(message));
    expect(error).toBeInstanceOf(CarrierUnavailable);
    expect(error?.message).toContain(`status ${status}`);
  });

  test('a 500 is not retried: the carrier may have sent the message', async () => {
    twilio.handle = () => ({ status: 500, json: { message: 'oops' } });
    expect(await caught(carrier().sendSms(message))).toBeInstanceOf(CarrierUnavailable);
    expect(twilio.received).toHaveLength(1);
  });

  test('a timeout is not retried either', async () => {
    twilio.handle = () => 'hang';
    const started = Date.now();
    const error = await caught(carrier({ timeoutMs: 200 }).sendSms(message));
    expect(error).toBeInstanceOf(CarrierUnavailable);
    expect(error?.message).toBe('the carrier did not answer within 200 ms');
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(twilio.received).toHaveLength(1);
  });

  test('a connection dropped before the answer is not retried', async () => {
    twilio.handle = () => 'drop';
    expect(await caught(carrier().sendSms(message))).toBeInstanceOf(CarrierUnavailable);
    expect(twilio.received).toHaveLength(1);
  });

  test('a 503 says the request was not processed: retried, then accepted', async () => {
    twilio.handle = inTurn({ status: 503, json: {} }, accepted);
    await expect(carrier().sendSms(message)).resolves.toEqual({ carrierMessageId: accepted.json.sid });
    expect(twilio.received).toHaveLength(2);
  });

  test('a 429 is retried, and after the retries it is CarrierUnavailable', async () => {
    twilio.handle = () => twilioError(429, 20429, 'Too Many Requests');
    const error = await caught(carrier({ retries: 2 }).sendSms(message));
    expect(error).toBeInstanceOf(CarrierUnavailable);
    expect(error?.message).toMatch(/rate limiting/);
    expect(twilio.received).toHaveLength(3);
  });

  test('a closed port is CarrierUnavailable', async () => {
    const port = await closedPort();
    const error = await caught(carrier({}, { baseUrl: `http://127.0.0.1:${port}` }).sendSms(message));
    expect(error).toBeInstanceOf(CarrierUnavailable);
    expect(error?.message).toBe('could not connect to the carrier');
  });

  test.each([401, 403])('a %i rejects the credentials', async (status) => {
    twilio.handle = () => twilioError(status, 20003, 'Authenticate');
    const error = await caught(carrier().sendSms(message));
    expect(error).toBeInstanceOf(CarrierRejected);
    expect((error as CarrierRejected).kind).toBe('authentication');
    expect(twilio.received).toHaveLength(1);
  });

  test.each([21211, 21408, 21610, 21612, 21614])('error %i refuses the destination', async (code) => {
    twilio.handle = () => twilioError(400, code, 'refused');
    const error = await caught(carrier().sendSms(message));
    expect(error).toBeInstanceOf(CarrierRejected);
    expect((error as CarrierRejected).kind).toBe('destination');
    expect(error?.message).toContain(`error ${code}`);
  });

  test('any other 4xx refuses the request', async () => {
    twilio.handle = () => twilioError(400, 21602, 'Message body is required.');
    const error = await caught(carrier().sendSms(message));
    expect((error as CarrierRejected).kind).toBe('request');
    expect(error?.message).toBe('the carrier refused the request (status 400, error 21602: Message body is required.)');
  });

  test('a 4xx without a Twilio error body still refuses the request', async () => {
    twilio.handle = () => ({ status: 400, text: '<html>bad</html>' });
    const error = await caught(carrier().sendSms(message));
    expect((error as CarrierRejected).kind).toBe('request');
  });

  test('a redirect is not followed: the base URL is wrong', async () => {
    twilio.handle = () => ({ status: 301, headers: { location: 'https://api.twilio.com/' } });
    const error = await caught(carrier().sendSms(message));
    expect((error as CarrierRejected).kind).toBe('request');
    expect(error?.message).toMatch(/redirect/);
    expect(twilio.received).toHaveLength(1);
  });

  test('an accepted answer without a sid is CarrierUnavailable', async () => {
    twilio.handle = () => ({ status: 201, text: 'ok' });
    expect(await caught(carrier().sendSms(message))).toBeInstanceOf(CarrierUnavailable);
  });

  test('loopback is refused unless allowPrivate is set, before anything is sent', async () => {
    twilio.handle = () => accepted;
    const error = await caught(carrier({ allowPrivate: false }).sendSms(message));
    expect(error).toBeInstanceOf(CarrierUnavailable);
    expect(error?.message).toMatch(/may not connect to/);
    expect(twilio.received).toHaveLength(0);
  });
});

describe('findSentSms', () => {
  const sent = { from: message.from, to: message.to, body: 'Your code is 1234', notBefore: '2026-11-22T10:00:00.000Z' };
  const listed = (sid: string, body: string, created: string) => ({ sid, body, from: sent.from, to: sent.to, date_created: new Date(created).toUTCString() });

  test("asks for the pair's messages and keeps those with the same body since the send began (less clock skew), oldest first", async () => {
    twilio.handle = () => ({
      status: 200,
      json: {
        messages: [
          listed('SMnewest', sent.body, '2026-11-22T10:03:00Z'),
          listed('SMother', 'another text', '2026-11-22T10:02:00Z'),
          listed('SMskewed', sent.body, '2026-11-22T09:57:00Z'),
          listed('SMbefore', sent.body, '2026-11-22T09:40:00Z'),
        ],
        next_page_uri: `${accountPath}/Messages.json?From=x&PageToken=PA1`,
      },
    });
    await expect(carrier().findSentSms(sent)).resolves.toEqual(['SMskewed', 'SMnewest']);
    // An entry older than the send ends the search: no further page is read.
    expect(twilio.received).toHaveLength(1);
    const request = twilio.received[0]!;
    expect(request.method).toBe('GET');
    expect(request.path).toBe(`${accountPath}/Messages.json`);
    expect(Object.fromEntries(request.query)).toEqual({ From: sent.from, To: sent.to, PageSize: '100' });
  });

  test('follows next_page_uri while the entries are recent, and stops after a bounded number of pages', async () => {
    let page = 0;
    twilio.handle = () => {
      page++;
      return {
        status: 200,
        json: { messages: [listed(`SM${page}`, sent.body, '2026-11-22T10:01:00Z')], next_page_uri: `${accountPath}/Messages.json?To=y&PageToken=PA${page}` },
      };
    };
    await expect(carrier().findSentSms(sent)).resolves.toEqual(['SM5', 'SM4', 'SM3', 'SM2', 'SM1']);
    expect(twilio.received).toHaveLength(5);
    expect(Object.fromEntries(twilio.received[1]!.query)).toEqual({ To: 'y', PageToken: 'PA1' });
  });

  test('an empty list finds nothing; a failing or odd answer is CarrierUnavailable', async () => {
    twilio.handle = () => ({ status: 200, json: { messages: [], next_page_uri: null } });
    await expect(carrier().findSentSms(sent)).resolves.toEqual([]);
    twilio.handle = () => ({ status: 503, json: {} });
    expect(await caught(carrier({ retries: 0 }).findSentSms(sent))).toBeInstanceOf(CarrierUnavailable);
    twilio.handle = () => ({ status: 200, json: { items: [] } });
    expect(await caught(carrier().findSentSms(sent))).toBeInstanceOf(CarrierUnavailable);
  });
});

describe('searchAvailable', () => {
  const listing = {
    available_phone_numbers: [
      { friendly_name: '(415) 555-0101', phone_number: '+14155550101', iso_country: 'US', capabilities: { voice: true, SMS: true, MMS: true } },
      { friendly_name: '(415) 555-0102', phone_number: '+14155550102', iso_country: 'US', capabilities: { voice: true, sms: false, mms: false } },
      { friendly_name: 'bogus', phone_number: '+1111', iso_country: 'US', capabilities: { voice: true, sms: true } },
    ],
  };

  test('gets local numbers with the area code and page size, reading both spellings of the SMS capability', async () => {
    twilio.handle = () => ({ status: 200, json: listing });
    await expect(carrier().searchAvailable({ country: 'us', areaCode: '415', limit: 20 })).resolves.toEqual([
      { number: '+14155550101', country: 'US', smsCapable: true, voiceCapable: true },
      { number: '+14155550102', country: 'US', smsCapable: false, voiceCapable: true },
    ]);
    const request = twilio.received[0]!;
    expect(request.method).toBe('GET');
    expect(request.path).toBe(`${accountPath}/AvailablePhoneNumbers/US/Local.json`);
    expect(Object.fromEntries(request.query)).toEqual({ AreaCode: '415', PageSize: '20' });
  });

  test('no area code, no AreaCode parameter; never more than the limit', async () => {
    twilio.handle = () => ({ status: 200, json: listing });
    await expect(carrier().searchAvailable({ country: 'US', limit: 1 })).resolves.toHaveLength(1);
    expect(Object.fromEntries(twilio.received[0]!.query)).toEqual({ PageSize: '1' });
  });

  test('a country the carrier does not sell in has no numbers', async () => {
    twilio.handle = () => twilioError(404, 20404, 'The requested resource was not found');
    await expect(carrier().searchAvailable({ country: 'ZZ', limit: 5 })).resolves.toEqual([]);
  });

  test('a 503 on a GET is retried, then succeeds', async () => {
    twilio.handle = inTurn({ status: 503, json: {} }, { status: 503, json: {} }, { status: 200, json: listing });
    await expect(carrier({ retries: 2 }).searchAvailable({ country: 'US', limit: 5 })).resolves.toHaveLength(2);
    expect(twilio.received).toHaveLength(3);
  });

  test('a timeout on a GET is retried (nothing to duplicate), then CarrierUnavailable', async () => {
    twilio.handle = () => 'hang';
    const error = await caught(carrier({ timeoutMs: 100, retries: 1 }).searchAvailable({ country: 'US', limit: 5 }));
    expect(error).toBeInstanceOf(CarrierUnavailable);
    expect(twilio.received).toHaveLength(2);
  });

  test('a GET to a closed port is retried and then CarrierUnavailable', async () => {
    const port = await closedPort();
    const error = await caught(carrier({}, { baseUrl: `http://127.0.0.1:${port}` }).searchAvailable({ country: 'US', limit: 5 }));
    expect(error).toBeInstanceOf(CarrierUnavailable);
  });
});

describe('numbers the account holds', () => {
  const held = (phoneNumber: string, sid = 'PN0123456789abcdef0123456789abcdef') => ({
    sid,
    phone_number: phoneNumber,
    capabilities: { voice: true, sms: true, mms: false, fax: false },
  });
  const list = (...numbers: unknown[]) => ({ status: 200, json: { incoming_phone_numbers: numbers } });

  const voice = { voiceUrl: 'https://voice.example/webhooks/carriers/c1/voice', statusCallbackUrl: 'https://voice.example/webhooks/carriers/c1/voice/status' };
  const voiceForm = { VoiceUrl: voice.voiceUrl, VoiceMethod: 'POST', StatusCallback: voice.statusCallbackUrl, StatusCallbackMethod: 'POST' };

  test('purchaseNumber posts PhoneNumber with the voice URL and status callback, and returns the capabilities', async () => {
    twilio.handle = () => ({ status: 201, json: held('+14155550101') });
    await expect(carrier().purchaseNumber('+14155550101', voice)).resolves.toEqual({ smsCapable: true, voiceCapable: true });
    expect(twilio.received[0]).toMatchObject({ method: 'POST', path: `${accountPath}/IncomingPhoneNumbers.json` });
    expect(twilio.received[0]!.form).toEqual({ PhoneNumber: '+14155550101', ...voiceForm });
  });

  test.each([21422, 21421])('purchaseNumber: error %i is NumberNotAvailable', async (code) => {
    twilio.handle = () => twilioError(400, code, 'PhoneNumber Requested is not available');
    const error = await caught(carrier().purchaseNumber('+14155550101', voice));
    expect(error).toBeInstanceOf(NumberNotAvailable);
    expect((error as NumberNotAvailable).number).toBe('+14155550101');
  });

  test('purchaseNumber: a 500 is not retried (the number may have been bought)', async () => {
    twilio.handle = () => ({ status: 500, json: {} });
    expect(await caught(carrier().purchaseNumber('+14155550101', voice))).toBeInstanceOf(CarrierUnavailable);
    expect(twilio.received).toHaveLength(1);
  });

  test('importNumber finds the number exactly and points its voice URL and status callback at the platform by its sid', async () => {
    twilio.handle = (request: ReceivedRequest) => (request.method === 'GET' ? list(held('+141555501011', 'PNother'), held('+14155550101', 'PNabc')) : { status: 200, json: held('+14155550101', 'PNabc') });
    await expect(carrier().importNumber('+14155550101', voice)).resolves.toEqual({ smsCapable: true, voiceCapable: true });
    expect(twilio.received[0]).toMatchObject({ method: 'GET', path: `${accountPath}/IncomingPhoneNumbers.json` });
    expect(twilio.received[0]!.query.get('PhoneNumber')).toBe('+14155550101');
    expect(twilio.received[1]).toMatchObject({ method: 'POST', path: `${accountPath}/IncomingPhoneNumbers/PNabc.json` });
    expect(twilio.received[1]!.form).toEqual(voiceForm);
  });

  test('importNumber: an SMS-only number is not given a voice URL; a refused update is the carrier’s refusal', async () => {
    twilio.handle = () => list({ ...held('+14155550101'), capabilities: { voice: false, sms: true } });
    await expect(carrier().importNumber('+14155550101', voice)).resolves.toEqual({ smsCapable: true, voiceCapable: false });
    expect(twilio.received).toHaveLength(1);
    twilio.handle = (request: ReceivedRequest) => (request.method === 'GET' ? list(held('+14155550101')) : twilioError(400, 21402, 'VoiceUrl is not valid'));
    expect(await caught(carrier().importNumber('+14155550101', voice))).toBeInstanceOf(CarrierRejected);
  });

  test('importNumber: a number the account does not hold is undefined and nothing is changed', async () => {
    twilio.handle = () => list();
    await expect(carrier().importNumber('+14155550101', voice)).resolves.toBeUndefined();
    twilio.handle = () => list(held('+141555501019'));
    await expect(carrier().importNumber('+14155550101', voice)).resolves.toBeUndefined();
    expect(twilio.received.map((request) => request.method)).toEqual(['GET', 'GET']);
  });

  test('releaseNumber looks the number up and deletes it by sid', async () => {
    twilio.handle = (request: ReceivedRequest) => (request.method === 'GET' ? list(held('+14155550101', 'PNabc')) : { status: 204 });
    await carrier().releaseNumber('+14155550101');
    expect(twilio.received.map((request) => `${request.method} ${request.path}`)).toEqual([
      `GET ${accountPath}/IncomingPhoneNumbers.json`,
      `DELETE ${accountPath}/IncomingPhoneNumbers/PNabc.json`,
    ]);
  });

  test('releaseNumber: a number already gone is released', async () => {
    twilio.handle = () => list();
    await expect(carrier().releaseNumber('+14155550101')).resolves.toBeUndefined();
    expect(twilio.received).toHaveLength(1);

    twilio.handle = (request: ReceivedRequest) => (request.method === 'GET' ? list(held('+14155550101')) : twilioError(404, 20404, 'not found'));
    await expect(carrier().releaseNumber('+14155550101')).resolves.toBeUndefined();
  });

  test('releaseNumber: a DELETE that times out is retried (deleting twice is harmless)', async () => {
    let deletes = 0;
    twilio.handle = (request: ReceivedRequest) => {
      if (request.method === 'GET') return list(held('+14155550101'));
      return ++deletes === 1 ? 'hang' : { status: 204 };
    };
    await carrier({ timeoutMs: 150 }).releaseNumber('+14155550101');
    expect(deletes).toBe(2);
  });
});

describe('testConnection', () => {
  test('reads the account', async () => {
    twilio.handle = () => ({ status: 200, json: { sid: accountSid, status: 'active' } });
    await expect(carrier().testConnection()).resolves.toEqual({ ok: true });
    expect(twilio.received[0]).toMatchObject({ method: 'GET', path: `${accountPath}.json` });
  });

  test('401 is authentication_failed', async () => {
    twilio.handle = () => twilioError(401, 20003, 'Authenticate');
    await expect(carrier().testConnection()).resolves.toMatchObject({ ok: false, failure: 'authentication_failed' });
  });

  test('5xx, timeouts and closed ports are unreachable', async () => {
    twilio.handle = () => ({ status: 500, json: {} });
    await expect(carrier({ retries: 0 }).testConnection()).resolves.toMatchObject({ ok: false, failure: 'unreachable' });
    twilio.handle = () => 'hang';
    await expect(carrier({ retries: 0, timeoutMs: 100 }).testConnection()).resolves.toMatchObject({ ok: false, failure: 'unreachable' });
    const port = await closedPort();
    await expect(carrier({ retries: 0 }, { baseUrl: `http://127.0.0.1:${port}` }).testConnection()).resolves.toMatchObject({
      ok: false,
      failure: 'unreachable',
    });
    await expect(carrier({}, { baseUrl: 'not a url' }).testConnection()).resolves.toMatchObject({ ok: false, failure: 'unreachable' });
  });

  test('anything else is unexpected_response', async () => {
    twilio.handle = () => twilioError(404, 20404, 'not found');
    await expect(carrier().testConnection()).resolves.toMatchObject({ ok: false, failure: 'unexpected_response' });
    twilio.handle = () => ({ status: 200, text: '<html>a web page</html>' });
    await expect(carrier().testConnection()).resolves.toMatchObject({ ok: false, failure: 'unexpected_response' });
  });
});

describe('circuit breaker', () => {
  function breakersWithClock() {
    let now = 0;
    return { breakers: new CircuitBreakers({ now: () => now, cooldownMs: 30_000 }), advance: (ms: number) => (now += ms) };
  }

  test('opens after five failures, fails fast without a request, and half-opens after the cooldown', async () => {
    const { breakers, advance } = breakersWithClock();
    const adapter = carrier({ breakers });
    twilio.handle = () => ({ status: 500, json: {} });
    for (let i = 0; i < 5; i++) expect(await caught(adapter.sendSms(message))).toBeInstanceOf(CarrierUnavailable);
    expect(twilio.received).toHaveLength(5);

    twilio.handle = () => accepted;
    const refused = await caught(adapter.sendSms(message));
    expect(refused).toBeInstanceOf(CarrierUnavailable);
    expect(refused?.message).toMatch(/paused after repeated failures/);
    expect(twilio.received).toHaveLength(5);

    // Another adapter of the same account shares the circuit; another account does not.
    expect(await caught(carrier({ breakers }).searchAvailable({ country: 'US', limit: 1 }))).toBeInstanceOf(CarrierUnavailable);
    expect(twilio.received).toHaveLength(5);
    await expect(carrier({ breakers }, { accountSid: 'AC99999999999999999999999999999999' }).sendSms(message)).resolves.toBeDefined();
    expect(twilio.received).toHaveLength(6);

    advance(30_000);
    await expect(adapter.sendSms(message)).resolves.toEqual({ carrierMessageId: accepted.json.sid });
    await expect(adapter.sendSms(message)).resolves.toBeDefined();
    expect(twilio.received).toHaveLength(8);
  });

  test('a failed trial opens it again', async () => {
    const { breakers, advance } = breakersWithClock();
    const adapter = carrier({ breakers });
    twilio.handle = () => 'drop';
    for (let i = 0; i < 5; i++) await caught(adapter.sendSms(message));
    advance(30_000);
    await caught(adapter.sendSms(message));
    expect(twilio.received).toHaveLength(6);
    await caught(adapter.sendSms(message));
    expect(twilio.received).toHaveLength(6);
  });

  test('refusals (4xx) and rate limiting do not open it', async () => {
    const { breakers } = breakersWithClock();
    const adapter = carrier({ breakers, retries: 0 });
    twilio.handle = inTurn(...new Array(4).fill(twilioError(400, 21211, 'invalid')), ...new Array(4).fill(twilioError(429, 20429, 'slow down')), accepted);
    for (let i = 0; i < 8; i++) await caught(adapter.sendSms(message));
    await expect(adapter.sendSms(message)).resolves.toBeDefined();
  });
});

describe('A2P campaigns', () => {
  test('are vetted out of band: pending, without a request', async () => {
    await expect(
      carrier().submitA2pCampaign({ id: 'c1', name: 'Alerts', useCase: 'account_notification', description: 'x', sampleMessages: [] }),
    ).resolves.toEqual({ status: 'pending' });
    expect(twilio.received).toHaveLength(0);
  });
});

describe('callback signatures', () => {
  // Twilio's documented request-validation example (auth token 12345).
  const documented = {
    authToken: '12345',
    url: 'https://mycompany.com/myapp.php?foo=1&bar=2',
    params: { CallSid: 'CA1234567890ABCDE', Caller: '+14158675309', Digits: '1234', From: '+14158675309', To: '+18005551212' },
    signature: 'RSOYDt4T1cUTdK1PDd93/VVr8B8=',
  };
  const independently = (token: string, url: string, params: Record<string, string>) =>
    createHmac('sha1', token)
      .update(url + Object.keys(params).sort().map((name) => name + params[name]).join(''))
      .digest('base64');

  test("matches Twilio's documented example and an independent computation", () => {
    expect(twilioSignature(documented.authToken, documented.url, documented.params)).toBe(documented.signature);
    expect(independently(documented.authToken, documented.url, documented.params)).toBe(documented.signature);
    const params = { MessageSid: 'SM1', MessageStatus: 'delivered', AccountSid: accountSid, ErrorCode: '' };
    expect(twilioSignature(authToken, 'https://voice.example/webhooks/carriers/c1', params)).toBe(
      independently(authToken, 'https://voice.example/webhooks/carriers/c1', params),
    );
  });

  test('verifyCallback accepts the signature made with the account token and nothing else', () => {
    const verify = (adapter: CarrierAdapter, overrides: Partial<{ url: string; params: Record<string, string>; signature: string }>) =>
      adapter.verifyCallback({ url: documented.url, params: documented.params, signature: documented.signature, ...overrides });
    const adapter = new TwilioCompatibleCarrier({ baseUrl: twilio.baseUrl, accountSid, authToken: '12345' }, { breakers: new CircuitBreakers() });
    expect(verify(adapter, {})).toBe(true);
    expect(verify(adapter, { params: { ...documented.params, Digits: '9999' } })).toBe(false);
    expect(verify(adapter, { params: { ...documented.params, Extra: '' } })).toBe(false);
    expect(verify(adapter, { url: `${documented.url}&baz=3` })).toBe(false);
    expect(verify(adapter, { url: documented.url.replace('https:', 'http:') })).toBe(false);
    expect(verify(adapter, { signature: 'RSOYDt4T1cUTdK1PDd93/VVr8B8' })).toBe(false);
    expect(verify(adapter, { signature: '' })).toBe(false);
    expect(verify(carrier(), {})).toBe(false);
  });

  test('an empty auth token verifies nothing, not even its own signature', () => {
    const adapter = new TwilioCompatibleCarrier({ baseUrl: twilio.baseUrl, accountSid, authToken: '' }, { breakers: new CircuitBreakers() });
    const signature = twilioSignature('', documented.url, documented.params);
    expect(adapter.verifyCallback({ url: documented.url, params: documented.params, signature })).toBe(false);
  });
});

describe('secrets', () => {
  test('neither the account sid nor the auth token appears in any error or test message', async () => {
    const echo = `Account ${accountSid} with token ${authToken} at /2010-04-01/Accounts/${accountSid}/Messages.json`;
    const messages: string[] = [];
    const collect = async (promise: Promise<unknown>) => {
      const error = await caught(promise);
      if (error) messages.push(error.message, String(error.stack), String((error.cause as Error | undefined)?.message));
    };
    for (const status of [400, 401, 403, 404]) {
      twilio.handle = () => twilioError(status, 21211, echo);
      await collect(carrier().sendSms(message));
      await collect(carrier().purchaseNumber('+14155550101', { voiceUrl: 'https://voice.example/v', statusCallbackUrl: 'https://voice.example/s' }));
      await collect(carrier().releaseNumber('+14155550101'));
      const result = await carrier().testConnection();
      if (!result.ok) messages.push(result.message);
    }
    twilio.handle = () => ({ status: 500, json: { message: echo } });
    await collect(carrier({ retries: 0 }).sendSms(message));
    twilio.handle = () => 'hang';
    await collect(carrier({ timeoutMs: 50, retries: 0 }).sendSms(message));
    await collect(carrier({}, { baseUrl: `http://127.0.0.1:${await closedPort()}` }).sendSms(message));

    expect(messages.length).toBeGreaterThan(20);
    expect(messages.some((text) => text.includes('[redacted]'))).toBe(true);
    for (const text of messages) {
      expect(text).not.toContain(accountSid);
      expect(text).not.toContain(authToken);
    }
  });
});

describe('voice calls', () => {
  const leg = {
    legId: '7c0f5d3e-9a4b-4c1e-8f00-2b6a1d9e4c11',
    from: '+14155550100',
    to: '+14155550199',
    maxDurationSeconds: 600,
    mediaParameters: { call_id: 'c1', session_token: 'st' },
    instructionsUrl: 'https://voice.example/webhooks/carriers/c1/calls/l1/twiml',
    statusCallbackUrl: 'https://voice.example/webhooks/carriers/c1/calls/l1/status',
    recordingStatusCallbackUrl: 'https://voice.example/webhooks/carriers/c1/calls/l1/recording',
  };
  const callSid = 'CA0123456789abcdef0123456789abcdef';

  test('placeCall posts Calls.json with the TwiML URL, the status callback and its events, and the time limit', async () => {
    twilio.handle = () => ({ status: 201, json: { sid: callSid, status: 'queued' } });
    await expect(carrier().placeCall(leg)).resolves.toEqual({ carrierCallId: callSid });
    const request = twilio.received[0]!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe(`${accountPath}/Calls.json`);
    expect(request.form).toMatchObject({ From: leg.from, To: leg.to, Url: leg.instructionsUrl, Method: 'POST', StatusCallback: leg.statusCallbackUrl, StatusCallbackMethod: 'POST', TimeLimit: '600' });
    expect(new URLSearchParams(request.body).getAll('StatusCallbackEvent')).toEqual(['initiated', 'ringing', 'answered', 'completed']);
    expect(request.form).toMatchObject({ Record: 'true', RecordingStatusCallback: leg.recordingStatusCallbackUrl, RecordingStatusCallbackEvent: 'completed' });
    // The media parameters travel in the TwiML the carrier fetches, never in the dial request.
    expect(request.body).not.toContain('session_token');
  });

  test('a refused destination and an outage are the adapter errors every carrier throws', async () => {
    twilio.handle = () => twilioError(400, 21211, "The 'To' number is not a valid phone number.");
    const refused = await caught(carrier().placeCall(leg));
    expect(refused).toBeInstanceOf(CarrierRejected);
    expect((refused as CarrierRejected).kind).toBe('destination');
    twilio.handle = () => ({ status: 503 });
    expect(await caught(carrier().placeCall(leg))).toBeInstanceOf(CarrierUnavailable);
  });

  test('placeSpokenCall posts Calls.json with TwiML that says the text twice (escaped), a time limit and no callbacks', async () => {
    twilio.handle = () => ({ status: 201, json: { sid: callSid, status: 'queued' } });
    const spoken = { from: leg.from, to: leg.to, speech: 'Your code is 1, 2 & <3>.', reference: 'caller-id-1' };
    await expect(carrier().placeSpokenCall(spoken)).resolves.toEqual({ carrierCallId: callSid });
    const request = twilio.received[0]!;
    expect(request.path).toBe(`${accountPath}/Calls.json`);
    expect(request.form).toEqual({
      From: leg.from,
      To: leg.to,
      Twiml: '<?xml version="1.0" encoding="UTF-8"?><Response><Say loop="2">Your code is 1, 2 &amp; &lt;3&gt;.</Say></Response>',
      TimeLimit: '120',
    });
    twilio.handle = () => twilioError(400, 21211, "The 'To' number is not a valid phone number.");
    expect(await caught(carrier().placeSpokenCall(spoken))).toBeInstanceOf(CarrierRejected);
  });

  test('endCall posts Status=completed to the call; a call the carrier no longer knows has ended', async () => {
    twilio.handle = () => ({ status: 200, json: { sid: callSid, status: 'completed' } });
    await carrier().endCall(callSid);
    expect(twilio.received[0]).toMatchObject({ method: 'POST', path: `${accountPath}/Calls/${callSid}.json`, form: { Status: 'completed' } });
    twilio.handle = () => twilioError(404, 20404, 'The requested resource was not found');
    await expect(carrier().endCall(callSid)).resolves.toBeUndefined();
  });

  test("fetchRecording downloads the recording's WAV with the account's credentials; a missing one is refused", async () => {
    const wav = Buffer.from([0x52, 0x49, 0x46, 0x46, 0x00, 0xff, 0xfe, 0x80, 0x57, 0x41, 0x56, 0x45]);
    twilio.handle = (request) =>
      request.path === `${accountPath}/Recordings/RE0123456789abcdef0123456789abcdef.wav`
        ? { status: 200, bytes: wav, headers: { 'content-type': 'audio/x-wav' } }
        : twilioError(404, 20404, 'The requested resource was not found');
    const recording = await carrier().fetchRecording('RE0123456789abcdef0123456789abcdef');
    expect(recording.contentType).toBe('audio/wav');
    expect(twilio.received[0]!.headers['authorization']).toBe(`Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`);
    expect(recording.bytes).toEqual(wav);
    const refused = await caught(carrier().fetchRecording('RE00000000000000000000000000000000'));
    expect(refused).toBeInstanceOf(CarrierRejected);
  });
});
