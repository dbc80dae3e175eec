// Tier 1: the form of every credential identity issues, and who may manage which member, on their own.
import { roleRank } from '@voice/runtime/access';
import {
  accessTokenPrefix,
  apiKeyPrefix,
  generateApiKey,
  hashCredential,
  isValidRootKey,
  keyHint,
  looksLike,
  maxPresentedLength,
} from '../src/domain/credentials.js';
import { mayManage, revokesCredentials } from '../src/domain/member-rules.js';

test('an API key is svc_ and 43 base62 characters, hinted by its last four, and stored only as its SHA-256', () => {
  const key = generateApiKey();
  expect(key).toMatch(/^svc_[0-9A-Za-z]{43}$/);
  expect(generateApiKey()).not.toBe(key);
  expect(keyHint(key)).toBe(`svc_…${key.slice(-4)}`);
  expect(hashCredential(key)).toMatch(/^[0-9a-f]{64}$/);
  expect(hashCredential(key)).not.toContain(key.slice(4));
});

test('only values of the right prefix and length look like ours', () => {
  expect(looksLike(generateApiKey(), apiKeyPrefix)).toBe(true);
  expect(looksLike(`${accessTokenPrefix}x`, accessTokenPrefix)).toBe(true);
  expect(looksLike('Bearer svc_x', apiKeyPrefix)).toBe(false);
  expect(looksLike(`svc_${'x'.repeat(maxPresentedLength)}`, apiKeyPrefix)).toBe(false);
});

test('VOICE_ROOT_API_KEY must be an API key of at least 32 characters after svc_, never an access token', () => {
  expect(isValidRootKey(generateApiKey())).toBe(true);
  expect(isValidRootKey(`svc_${'a'.repeat(32)}`)).toBe(true);
  expect(isValidRootKey(`svc_${'a'.repeat(31)}`)).toBe(false);
  expect(isValidRootKey(`svc_at_${'a'.repeat(40)}`)).toBe(false);
  expect(isValidRootKey(`svc_${'a'.repeat(30)} !`)).toBe(false);
});

test('a user manages members up to its own role, from admin up; service accounts are not bound by roles', () => {
  expect(mayManage({ kind: 'unrestricted' }, 'owner', undefined)).toBe(true);
  expect(mayManage({ kind: 'user', role: 'member' }, undefined, 'member')).toBe(false);
  expect(mayManage({ kind: 'user', role: 'admin' }, 'member', 'admin')).toBe(true);
  expect(mayManage({ kind: 'user', role: 'admin' }, 'admin', 'owner')).toBe(false);
  expect(mayManage({ kind: 'user', role: 'admin' }, 'owner', undefined)).toBe(false);
  expect(mayManage({ kind: 'user', role: 'owner' }, 'owner', 'member')).toBe(true);
});

test('demotion and suspension end a member’s credentials; promotion and reactivation do not', () => {
  expect(roleRank('owner')).toBeGreaterThan(roleRank('member'));
  expect(revokesCredentials({ role: 'owner', status: 'active' }, { role: 'member', status: 'active' })).toBe(true);
  expect(revokesCredentials({ role: 'member', status: 'active' }, { role: 'member', status: 'suspended' })).toBe(true);
  expect(revokesCredentials({ role: 'member', status: 'active' }, { role: 'admin', status: 'active' })).toBe(false);
  expect(revokesCredentials({ role: 'member', status: 'suspended' }, { role: 'member', status: 'active' })).toBe(false);
});
