// The signed caller context: what a service trusts about who is calling it.
import { createHmac, randomBytes } from 'node:crypto';
import { createContextValues, type HandlerContext } from '@connectrpc/connect';
import { callerHeader, callerKey, callHeaders, CallerSigner, internalCallerFor, requestIdHeader, serviceCaller, type Caller } from '../src/caller.js';

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
    expect(signer.verify(token, 'req-123', now)).toEqual(caller);
  });

  test('unrestricted scopes and internal principals survive the trip', () => {
    const internal: Caller = { workspaceId: '', principal: { type: 'internal', id: 'gateway', name: 'gateway' }, scopes: null, requestId: 'r' };
    expect(signer.verify(signer.sign(internal, now), 'r', now)).toEqual(internal);
  });

  test('the signing time is not part of the verified caller', () => {
    expect(signer.verify(signer.sign(caller, now), 'req-123', now)).not.toHaveProperty('iat');
  });

  test('a changed body fails', () => {
    const token = signer.sign(caller, now);
    const [, mac] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...caller, workspaceId: 'another-workspace', iat: Math.floor(now / 1000) })).toString('base64url');
    expect(signer.verify(`${forged}.${mac}`, 'req-123', now)).toBeUndefined();
    const body = token.slice(0, token.indexOf('.'));
    const flipped = (body[0] === 'A' ? 'B' : 'A') + body.slice(1);
    expect(signer.verify(`${flipped}.${mac}`, 'req-123', now)).toBeUndefined();
  });

  test('a changed MAC fails', () => {
    const token = signer.sign(caller, now);
    const last = token.at(-1) === 'A' ? 'B' : 'A';
    expect(signer.verify(token.slice(0, -1) + last, 'req-123', now)).toBeUndefined();
    expect(signer.verify(token.slice(0, -1), 'req-123', now)).toBeUndefined();
    expect(signer.verify(token + 'A', 'req-123', now)).toBeUndefined();
  });

  test('a caller signed with another secret fails', () => {
    const other = new CallerSigner(randomBytes(32));
    expect(signer.verify(other.sign(caller, now), 'req-123', now)).toBeUndefined();
  });

  test('up to 120 s old or ahead is accepted, beyond that refused', () => {
    const token = signer.sign(caller, now);
    expect(signer.verify(token, 'req-123', now + 120_000)).toEqual(caller);
    expect(signer.verify(token, 'req-123', now + 121_000)).toBeUndefined();
    expect(signer.verify(token, 'req-123', now - 120_000)).toEqual(caller);
    expect(signer.verify(token, 'req-123', now - 121_000)).toBeUndefined();
    expect(signer.verify(token, 'req-123', now + 3_600_000)).toBeUndefined();
  });

  test('a validly signed payload without a signing time is refused', () => {
    const secret = randomBytes(32);
    const body = Buffer.from(JSON.stringify(caller)).toString('base64url');
    const mac = createHmac('sha256', secret).update(body).digest('base64url');
    expect(new CallerSigner(secret).verify(`${body}.${mac}`, 'req-123', now)).toBeUndefined();
  });

  test('uses the current time by default', () => {
    expect(signer.verify(signer.sign(caller), 'req-123')).toEqual(caller);
    expect(signer.verify(signer.sign(caller, Date.now() - 10 * 60_000), 'req-123')).toBeUndefined();
  });

  test('the request id travels beside the signature: one token serves many requests', () => {
    const token = signer.sign(caller, now);
    const another: Caller = { ...caller, requestId: 'another' };
    expect(signer.sign(another, now)).toBe(token);
    expect(signer.verify(token, 'req-999', now)).toEqual({ ...caller, requestId: 'req-999' });
  });

  test('a token is one per payload and second: another payload or second gets another', () => {
    const narrower: Caller = { ...caller, scopes: ['calls:read'] };
    const token = signer.sign(caller, now);
    const narrowerToken = signer.sign(narrower, now + 500);
    expect(narrowerToken).not.toBe(token);
    expect(signer.verify(narrowerToken, 'req-123', now)).toEqual(narrower);
    expect(signer.sign(caller, now + 999)).toBe(token);
    const next = signer.sign(caller, now + 1_000);
    expect(next).not.toBe(token);
    expect(signer.verify(next, 'req-123', now + 1_000)).toEqual(caller);
    // Back to an earlier second (a test's clock): the token of that second again.
    expect(signer.sign(caller, now)).toBe(token);
  });

  test('a token verified once is still refused once it is too old', () => {
    const token = signer.sign(caller, now);
    expect(signer.verify(token, 'req-123', now)).toEqual(caller);
    expect(signer.verify(token, 'req-123', now + 121_000)).toBeUndefined();
  });

  test.each([null, '', '.', 'no-dot', '.mac-only', 'body.', 'a.b.c', '!!!.???', 'ünï.cødé'])('garbage %j is refused', (token) => {
    expect(signer.verify(token, 'req-123', now)).toBeUndefined();
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
    expect(signer.verify(headers[callerHeader]!, headers[requestIdHeader]!)).toEqual(caller);
  });
});

describe('internalCallerFor', () => {
  const contextOf = (caller: Caller) => ({ values: createContextValues().set(callerKey, caller) }) as unknown as HandlerContext;
  const workspaceId = '6f1c2b1e-8d4a-4c6e-9a51-3f0e2d7b9c10';

  test('an internal caller of the named workspace, or of none, acts for it', () => {
    expect(internalCallerFor(contextOf(serviceCaller('calls', workspaceId, 'r')), workspaceId)).toMatchObject({ workspaceId });
    expect(internalCallerFor(contextOf(serviceCaller('telephony', '', 'r')), workspaceId)).toMatchObject({ workspaceId: '' });
  });

  test('one signed for another workspace is forbidden, and so is a public credential', () => {
    expect(() => internalCallerFor(contextOf(serviceCaller('calls', 'another', 'r')), workspaceId)).toThrow('the request names another workspace than its caller');
    const key: Caller = { workspaceId, principal: { type: 'service_account', id: 'k', name: 'k' }, scopes: null, requestId: 'r' };
    expect(() => internalCallerFor(contextOf(key), workspaceId, 'only telephony may call this')).toThrow('only telephony may call this');
  });
});
