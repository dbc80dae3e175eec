// The signed caller context: what a service trusts about who is calling it.
import { createHmac, randomBytes } from 'node:crypto';
import { callerHeader, callHeaders, CallerSigner, requestIdHeader, type Caller } from '../src/caller.js';

const caller: Caller = {
  workspaceId: '7f1c2a4e-8d3b-4c6a-9e5f-0a1b2c3d4e5f',
  principal: { type: 'service_account', id: 'c1d2e3f4-0000-4000-8000-000000000001', name: 'ci key' },
  scopes: ['calls:read', 'leads:write'],
  requestId: 'req-123',
};

describe('CallerSigner', () => {
  const signer = new CallerSigner(randomBytes(32));
  const now = Date.parse('2026-11-21T10:00:00.000Z');

  test('a signed caller verifies back to itself', () => {
    const token = signer.sign(caller, now);
    expect(signer.verify(token, now)).toEqual(caller);
  });

  test('unrestricted scopes and internal principals survive the trip', () => {
    const internal: Caller = { workspaceId: '', principal: { type: 'internal', id: 'gateway', name: 'gateway' }, scopes: null, requestId: 'r' };
    expect(signer.verify(signer.sign(internal, now), now)).toEqual(internal);
  });

  test('the signing time is not part of the verified caller', () => {
    expect(signer.verify(signer.sign(caller, now), now)).not.toHaveProperty('iat');
  });

  test('a changed body fails', () => {
    const token = signer.sign(caller, now);
    const [, mac] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...caller, workspaceId: 'another-workspace', iat: Math.floor(now / 1000) })).toString('base64url');
    expect(signer.verify(`${forged}.${mac}`, now)).toBeUndefined();
    const body = token.slice(0, token.indexOf('.'));
    const flipped = (body[0] === 'A' ? 'B' : 'A') + body.slice(1);
    expect(signer.verify(`${flipped}.${mac}`, now)).toBeUndefined();
  });

  test('a changed MAC fails', () => {
    const token = signer.sign(caller, now);
    const last = token.at(-1) === 'A' ? 'B' : 'A';
    expect(signer.verify(token.slice(0, -1) + last, now)).toBeUndefined();
    expect(signer.verify(token.slice(0, -1), now)).toBeUndefined();
    expect(signer.verify(token + 'A', now)).toBeUndefined();
  });

  test('a caller signed with another secret fails', () => {
    const other = new CallerSigner(randomBytes(32));
    expect(signer.verify(other.sign(caller, now), now)).toBeUndefined();
  });

  test('up to 120 s old or ahead is accepted, beyond that refused', () => {
    const token = signer.sign(caller, now);
    expect(signer.verify(token, now + 120_000)).toEqual(caller);
    expect(signer.verify(token, now + 121_000)).toBeUndefined();
    expect(signer.verify(token, now - 120_000)).toEqual(caller);
    expect(signer.verify(token, now - 121_000)).toBeUndefined();
    expect(signer.verify(token, now + 3_600_000)).toBeUndefined();
  });

  test('a validly signed payload without a signing time is refused', () => {
    const secret = randomBytes(32);
    const body = Buffer.from(JSON.stringify(caller)).toString('base64url');
    const mac = createHmac('sha256', secret).update(body).digest('base64url');
    expect(new CallerSigner(secret).verify(`${body}.${mac}`, now)).toBeUndefined();
  });

  test('uses the current time by default', () => {
    expect(signer.verify(signer.sign(caller))).toEqual(caller);
    expect(signer.verify(signer.sign(caller, Date.now() - 10 * 60_000))).toBeUndefined();
  });

  test.each([null, '', '.', 'no-dot', '.mac-only', 'body.', 'a.b.c', '!!!.???', 'ünï.cødé'])('garbage %j is refused', (token) => {
    expect(signer.verify(token, now)).toBeUndefined();
  });
});

describe('callHeaders', () => {
  test('carries the signed caller and the request id', () => {
    const signer = new CallerSigner(randomBytes(32));
    const headers = callHeaders(signer, caller);
    expect(Object.keys(headers).sort()).toEqual([callerHeader, requestIdHeader].sort());
    expect(callerHeader).toBe('x-voice-caller');
    expect(requestIdHeader).toBe('x-request-id');
    expect(headers[requestIdHeader]).toBe('req-123');
    expect(signer.verify(headers[callerHeader]!)).toEqual(caller);
  });
});
