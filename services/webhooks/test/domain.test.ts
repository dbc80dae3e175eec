// Tier 1: the signature scheme and the retry schedule.
import { createHmac } from 'node:crypto';
import { failedTooLong, retryDelayMs, retryWindowMs } from '../src/domain/retries.js';
import { newWebhookSecret, secretHint, signatureHeaderValue } from '../src/domain/signature.js';

test('the header carries the unix time and one HMAC-SHA256 of "<t>.<body>" per secret, newest first', () => {
  const at = new Date('2026-11-24T10:00:00.900Z');
  const body = '{"id":"e1","type":"ping"}';
  const header = signatureHeaderValue(['whsec_new', 'whsec_old'], at, body);
  const t = Math.floor(at.getTime() / 1000);
  const hmac = (secret: string) => createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  expect(header).toBe(`t=${t},v1=${hmac('whsec_new')},v1=${hmac('whsec_old')}`);
});

test('secrets are whsec_ and 40 random base62 characters, hinted by their last four', () => {
  const secret = newWebhookSecret();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9]{40}$/);
  expect(newWebhookSecret()).not.toBe(secret);
  expect(secretHint(secret)).toBe(`whsec_…${secret.slice(-4)}`);
});

test('retries back off exponentially with jitter in the upper half, at most an hour', () => {
  expect(retryDelayMs(1, () => 0)).toBe(15_000);
  expect(retryDelayMs(1, () => 1)).toBe(30_000);
  expect(retryDelayMs(2, () => 0.5)).toBe(45_000);
  expect(retryDelayMs(4, () => 1)).toBe(240_000);
  expect(retryDelayMs(30, () => 1)).toBe(3600_000);
  expect(retryDelayMs(30, () => 0)).toBe(1800_000);
});

test('an endpoint is failing too long after three days', () => {
  const since = '2026-11-01T00:00:00.000Z';
  expect(failedTooLong(null, new Date('2026-12-01T00:00:00.000Z'))).toBe(false);
  expect(failedTooLong(since, new Date(Date.parse(since) + retryWindowMs - 1))).toBe(false);
  expect(failedTooLong(since, new Date(Date.parse(since) + retryWindowMs))).toBe(true);
});
