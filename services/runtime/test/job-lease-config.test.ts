// VOICE_JOB_LEASE_SECONDS as readCommonConfig reads it: 30 s unset, seconds within 2..600, a
// ConfigError naming the variable otherwise.
import { randomBytes } from 'node:crypto';
import { ConfigError, type Env } from '../src/config/env.js';
import { readCommonConfig } from '../src/config/service-config.js';

/** The key is given, so reading the common config writes nothing to disk. */
const leaseOf = (env: Env) => readCommonConfig({ VOICE_INTERNAL_SECRET: randomBytes(32).toString('hex'), ...env }).jobLeaseMs;

test('unset: the 30 s every periodic job had', () => {
  expect(leaseOf({})).toBe(30_000);
});

test('set in seconds, bounds included', () => {
  expect(leaseOf({ VOICE_JOB_LEASE_SECONDS: '4' })).toBe(4_000);
  expect(leaseOf({ VOICE_JOB_LEASE_SECONDS: '2' })).toBe(2_000);
  expect(leaseOf({ VOICE_JOB_LEASE_SECONDS: '600' })).toBe(600_000);
});

test.each(['1', '601', 'soon', '-5'])('%s is refused, naming the variable', (value) => {
  expect(() => leaseOf({ VOICE_JOB_LEASE_SECONDS: value })).toThrow(ConfigError);
  expect(() => leaseOf({ VOICE_JOB_LEASE_SECONDS: value })).toThrow(/VOICE_JOB_LEASE_SECONDS/);
});
