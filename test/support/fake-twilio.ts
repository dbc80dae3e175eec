// A Twilio-compatible carrier on 127.0.0.1: the Messages, Calls, Recordings, IncomingPhoneNumbers
// (list, buy, update) and Accounts resources with basic auth, and a switch for how it fails. It
// records every request.
import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import { closerOf, listenOnLoopback } from './listen.js';
import type { ApiClient } from './api-client.js';

/** accept_silently: takes a message (it is sent and listed) but the answer never comes, like a carrier whose caller died. */
export type CarrierMode = 'ok' | 'server_error' | 'hang' | 'accept_silently';

export interface FakeTwilio {
  url: string;
  accountSid: string;
  authToken: string;
  mode: CarrierMode;
  /** In mode `ok`, how long a message's answer waits after the message is taken (recorded). */
  answerDelayMs: number;
  /** Sids the next messages get, in order (then random ones): a test can report a message before its send is answered. */
  nextMessageSids: string[];
  /** Numbers the account holds, with their SMS and voice capabilities (voice unless said). */
  numbers: Map<string, { sms: boolean; voice?: boolean }>;
  /** Every request, with its parsed form body. */
  requests: { method: string; path: string; form: Record<string, string>; authorization: string | undefined; sid?: string; at: Date }[];
  sentMessages(): Record<string, string>[];
  /** Calls.json requests (dials), with the sid each got: a Url to fetch instructions from, or the Twiml itself. */
  placedCalls(): { form: Record<string, string>; sid: string }[];
  /** The WAV each recording sid serves (GET Recordings/{sid}.wav). */
  recordings: Map<string, Buffer>;
  close(): Promise<void>;
}

/** A carrier connection to `carrier` in the workspace and `number` imported through it, through the public API. */
export async function importedNumber(
  api: ApiClient,
  key: string,
  carrier: FakeTwilio,
  number: string,
  capabilities: { voice?: boolean } = {},
): Promise<{ id: string; connectionId: string }> {
  const connection = await api.post('/carrier-connections', key, {
    name: 'Carrier account',
    provider: 'twilio',
    base_url: carrier.url,
    account_sid: carrier.accountSid,
    auth_token: carrier.authToken,
  });
  if (connection.status !== 201) throw new Error(`connection failed: ${connection.text}`);
  carrier.numbers.set(number, { sms: true, ...capabilities });
  const imported = await api.post('/phone-numbers/import', key, { number, carrier_connection_id: connection.body.data.id });
  if (imported.status !== 201) throw new Error(`import failed: ${imported.text}`);
  return { id: imported.body.data.id, connectionId: connection.body.data.id };
}

/** importedNumber with outbound SMS on: a sender whose every message the test can see. */
export async function importedSmsNumber(api: ApiClient, key: string, carrier: FakeTwilio, number: string): Promise<{ id: string; connectionId: string }> {
  const imported = await importedNumber(api, key, carrier, number);
  const enabled = await api.patch(`/phone-numbers/${imported.id}`, key, { sms_outbound_enabled: true });
  if (enabled.status !== 200) throw new Error(`enable failed: ${enabled.text}`);
  return imported;
}

/** A platform's environment making `carrier` its own carrier (caller ID codes, caller ID calls), reached on loopback. */
export const platformCarrierEnv = (carrier: FakeTwilio): Record<string, string> => ({
  VOICE_EGRESS_ALLOW_PRIVATE: 'true',
  VOICE_CARRIER: 'twilio',
  VOICE_CARRIER_URL: carrier.url,
  VOICE_CARRIER_ACCOUNT_SID: carrier.accountSid,
  VOICE_CARRIER_AUTH_TOKEN: carrier.authToken,
});

export async function startFakeTwilio(): Promise<FakeTwilio> {
  const fake: Omit<FakeTwilio, 'url' | 'close' | 'sentMessages' | 'placedCalls'> = {
    accountSid: `AC${randomBytes(16).toString('hex')}`,
    authToken: randomBytes(16).toString('hex'),
    mode: 'ok',
    answerDelayMs: 0,
    nextMessageSids: [],
    numbers: new Map(),
    requests: [],
    recordings: new Map(),
  };
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://carrier');
      const form = Object.fromEntries(new URLSearchParams(raw));
      const request: FakeTwilio['requests'][number] = { method: req.method ?? '', path: url.pathname, form, authorization: req.headers.authorization, at: new Date() };
      fake.requests.push(request);
      if (fake.mode === 'hang') return;
      const account = `/2010-04-01/Accounts/${fake.accountSid}`;
      if (fake.mode === 'accept_silently') {
        if (req.method === 'POST' && url.pathname === `${account}/Messages.json`) request.sid = `SM${randomBytes(16).toString('hex')}`;
        return;
      }
      if (fake.mode === 'server_error') return json(res, 500, { code: 20500, message: 'Internal Server Error', status: 500 });
      const expected = `Basic ${Buffer.from(`${fake.accountSid}:${fake.authToken}`).toString('base64')}`;
      if (req.headers.authorization !== expected) return json(res, 401, { code: 20003, message: 'Authenticate', status: 401 });
      if (req.method === 'GET' && url.pathname === `${account}.json`) return json(res, 200, { sid: fake.accountSid, status: 'active' });
      const numberRecord = (phoneNumber: string, held: { sms: boolean; voice?: boolean }) => ({
        sid: `PN${phoneNumber.slice(1)}`,
        phone_number: phoneNumber,
        capabilities: { sms: held.sms, voice: held.voice ?? true, mms: false },
      });
      if (req.method === 'GET' && url.pathname === `${account}/IncomingPhoneNumbers.json`) {
        const wanted = url.searchParams.get('PhoneNumber') ?? '';
        const held = fake.numbers.get(wanted);
        const list = held ? [numberRecord(wanted, held)] : [];
        return json(res, 200, { incoming_phone_numbers: list });
      }
      if (req.method === 'GET' && url.pathname === `${account}/Messages.json`) {
        // The account's messages, newest first, filtered like Twilio's list by From and To.
        const matches = (value: string, filter: string | null) => filter === null || value === filter;
        const messages = fake.requests
          .filter((sent) => sent.sid && matches(sent.form.From ?? '', url.searchParams.get('From')) && matches(sent.form.To ?? '', url.searchParams.get('To')))
          .reverse()
          .map((sent) => ({ sid: sent.sid, from: sent.form.From, to: sent.form.To, body: sent.form.Body, date_created: sent.at.toUTCString() }));
        return json(res, 200, { messages, next_page_uri: null });
      }
      if (req.method === 'POST' && url.pathname === `${account}/IncomingPhoneNumbers.json`) {
        // Buys any number nobody holds, with SMS and voice.
        if (!form.PhoneNumber || fake.numbers.has(form.PhoneNumber)) return json(res, 400, { code: 21422, message: 'PhoneNumber Requested is not available', status: 400 });
        fake.numbers.set(form.PhoneNumber, { sms: true });
        return json(res, 201, numberRecord(form.PhoneNumber, { sms: true }));
      }
      const resource = url.pathname.startsWith(`${account}/`) ? url.pathname.slice(account.length) : '';
      const numberUpdate = /^\/IncomingPhoneNumbers\/PN(\d+)\.json$/.exec(resource);
      if (req.method === 'POST' && numberUpdate) {
        const held = fake.numbers.get(`+${numberUpdate[1]}`);
        return held ? json(res, 200, numberRecord(`+${numberUpdate[1]}`, held)) : json(res, 404, { code: 20404, message: 'Not found', status: 404 });
      }
      if (req.method === 'POST' && url.pathname === `${account}/Messages.json`) {
        if (!form.To || !form.From || !form.Body) return json(res, 400, { code: 21604, message: 'A required field is missing', status: 400 });
        request.sid = fake.nextMessageSids.shift() ?? `SM${randomBytes(16).toString('hex')}`;
        const answer = () => json(res, 201, { sid: request.sid, status: 'queued', to: form.To, from: form.From });
        if (fake.answerDelayMs > 0) return void setTimeout(answer, fake.answerDelayMs);
        return answer();
      }
      if (req.method === 'POST' && url.pathname === `${account}/Calls.json`) {
        if (!form.To || !form.From || (!form.Url && !form.Twiml)) return json(res, 400, { code: 21205, message: 'Url parameter is required', status: 400 });
        request.sid = `CA${randomBytes(16).toString('hex')}`;
        return json(res, 201, { sid: request.sid, status: 'queued', to: form.To, from: form.From });
      }
      const call = /^\/Calls\/(CA[0-9a-f]{32})\.json$/.exec(resource);
      if (req.method === 'POST' && call) {
        const placed = fake.requests.some((earlier) => earlier.sid === call[1]);
        return placed ? json(res, 200, { sid: call[1], status: form.Status ?? 'in-progress' }) : json(res, 404, { code: 20404, message: 'Not found', status: 404 });
      }
      const recording = /^\/Recordings\/(RE[0-9a-f]{32})\.wav$/.exec(resource);
      const wav = req.method === 'GET' && recording ? fake.recordings.get(recording[1]!) : undefined;
      if (wav) return void res.writeHead(200, { 'content-type': 'audio/x-wav' }).end(wav);
      json(res, 404, { code: 20404, message: 'Not found', status: 404 });
    });
  });
  return Object.assign(fake, {
    url: await listenOnLoopback(server),
    sentMessages: () => fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/Messages.json')).map((r) => r.form),
    placedCalls: () => fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/Calls.json') && r.sid).map((r) => ({ form: r.form, sid: r.sid! })),
    close: closerOf(server),
  });
}

/** Twilio's webhook signature (X-Twilio-Signature), computed here independently of the platform's code. */
export const twilioSignature = (token: string, url: string, params: Record<string, string>): string =>
  createHmac('sha1', token)
    .update(url + Object.keys(params).sort().map((name) => name + params[name]).join(''))
    .digest('base64');
