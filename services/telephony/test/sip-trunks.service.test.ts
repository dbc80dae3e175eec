// Tier 2: SipTrunkService through Connect's router transport with the signed-caller check, a SQLite
// store and the real OPTIONS checker: sealing, masking, routing errors, the check against a SIP
// responder on loopback (allowed here) or refused by the egress guard, and a TLS trunk whose
// certificate nobody vouches for.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Code } from '@connectrpc/connect';
import { SipTrunkService } from '@voice/proto/voice/telephony/v1/sip_trunks';
import { SecretBox } from '@voice/runtime/crypto';
import { newId } from '@voice/runtime/ids';
import { telephonyRoutes } from '../src/routes.js';
import { openSqliteTelephonyStore } from '../src/store/sqlite.js';
import { routerClient, type TierClient } from '../../runtime/test/service-tiers.js';
import { startSipResponder, type SipResponder } from '../../../test/support/sip-responder.js';
import { failure, sandboxCarriers, telephonyDeps } from './harness.js';
import { numberRecord } from './store.contract.js';

const dir = mkdtempSync(join(tmpdir(), 'telephony-sip-'));
const store = openSqliteTelephonyStore(join(dir, 'telephony.sqlite'));
const box = new SecretBox(randomBytes(32));
const carriers = sandboxCarriers(box);
const password = 'pbx-Password-91c';

const tier = (allowPrivate: boolean): TierClient<typeof SipTrunkService> =>
  routerClient(SipTrunkService, telephonyRoutes(telephonyDeps({ store, box, carriers, allowPrivate, sipCheckTimeoutMs: 600 })));
const allowed = tier(true);
const guarded = tier(false);
let responder: SipResponder;

beforeAll(async () => {
  responder = await startSipResponder({ answer: { status: 200, reason: 'OK' } });
});
afterAll(async () => {
  await responder.close();
  carriers.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the password is sealed at rest and answered only as the mask', async () => {
  const workspace = newId();
  const { trunk } = await allowed.client.createSipTrunk({ name: 'PBX', address: 'pbx.example', username: 'office', password }, allowed.inWorkspace(workspace));
  expect(trunk).toMatchObject({ transport: 'udp', direction: 'both', username: 'office', passwordHint: '•••' });
  const stored = await store.getSipTrunk(workspace, trunk!.id);
  expect(stored!.sealedPassword).toMatch(/^enc:v1:/);
  expect(box.open(stored!.sealedPassword!)).toBe(password);
  expect(Object.values(trunk!)).not.toContain(password);
});

test('routing errors: another workspace’s number is not found, a number on another trunk a conflict', async () => {
  const workspace = newId();
  const number = numberRecord(workspace);
  const foreign = numberRecord(newId());
  await store.insertNumber(number);
  await store.insertNumber(foreign);
  const options = allowed.inWorkspace(workspace);
  expect(await failure(allowed.client.createSipTrunk({ name: 'A', address: 'pbx.example', numberIds: [foreign.id] }, options))).toMatchObject({ code: Code.NotFound, reason: 'not_found' });
  await allowed.client.createSipTrunk({ name: 'A', address: 'pbx.example', numberIds: [number.id] }, options);
  expect(await failure(allowed.client.createSipTrunk({ name: 'B', address: 'pbx.example', numberIds: [number.id] }, options))).toMatchObject({ reason: 'conflict' });
  expect(await failure(allowed.client.createSipTrunk({ name: 'C', address: 'pbx.example', transport: 'pigeon' }, options))).toMatchObject({
    reason: 'invalid_request',
    fields: [expect.objectContaining({ field: 'transport' })],
  });
});

test('the check reports the responder’s answer; the guard refuses loopback before anything is sent', async () => {
  const workspace = newId();
  const { trunk } = await allowed.client.createSipTrunk({ name: 'Local', address: `127.0.0.1:${responder.port}`, transport: 'tcp' }, allowed.inWorkspace(workspace));
  const answer = await allowed.client.checkSipTrunk({ id: trunk!.id }, allowed.inWorkspace(workspace));
  expect(answer).toMatchObject({ reachable: true, statusCode: 200, reasonPhrase: 'OK', failure: '' });
  const before = responder.received.length;
  expect(await failure(guarded.client.checkSipTrunk({ id: trunk!.id }, guarded.inWorkspace(workspace)))).toMatchObject({ reason: 'destination_forbidden' });
  expect(responder.received).toHaveLength(before);
  expect(await failure(allowed.client.checkSipTrunk({ id: trunk!.id }, allowed.inWorkspace(newId())))).toMatchObject({ reason: 'not_found' });
});

test('a TLS trunk whose certificate is not trusted is a tls_error, and nothing is sent to it', async () => {
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', '/CN=127.0.0.1'], { stdio: 'ignore' });
  const received: Buffer[] = [];
  const server: TlsServer = createTlsServer({ key: readFileSync(keyFile), cert: readFileSync(certFile) }, (socket) => {
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', () => undefined);
  });
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const workspace = newId();
    const port = (server.address() as { port: number }).port;
    const { trunk } = await allowed.client.createSipTrunk({ name: 'Secure', address: `sips:127.0.0.1:${port}`, transport: 'tls' }, allowed.inWorkspace(workspace));
    const answer = await allowed.client.checkSipTrunk({ id: trunk!.id }, allowed.inWorkspace(workspace));
    expect(answer).toMatchObject({ reachable: false, failure: 'tls_error', statusCode: 0 });
    expect(received).toEqual([]);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
