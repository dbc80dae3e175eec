// VOICE_GRPC_MAX_CONNECTION_AGE_SECONDS and _GRACE_SECONDS as readCommonConfig reads them: the
// defaults, `0` and `off`, and a ConfigError naming the variable for anything else.
import { randomBytes } from 'node:crypto';
import { ConfigError, type Env } from '../src/config/env.js';
import { readCommonConfig } from '../src/config/service-config.js';

const maxAge = 'VOICE_GRPC_MAX_CONNECTION_AGE_SECONDS';
const grace = 'VOICE_GRPC_MAX_CONNECTION_AGE_GRACE_SECONDS';

/** The key is given, so reading the common config writes nothing to disk. */
const connectionAgeOf = (env: Env) => readCommonConfig({ VOICE_INTERNAL_SECRET: randomBytes(32).toString('hex'), ...env }).connectionAge;

function configErrorOf(env: Env): ConfigError {
  try {
    connectionAgeOf(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError, but nothing was thrown');
}

test('unset or blank: five minutes, with a 30 s grace', () => {
  expect(connectionAgeOf({})).toEqual({ maxAgeMs: 300_000, graceMs: 30_000 });
  expect(connectionAgeOf({ [maxAge]: ' ', [grace]: '' })).toEqual({ maxAgeMs: 300_000, graceMs: 30_000 });
});

test('both set, in seconds, bounds included', () => {
  expect(connectionAgeOf({ [maxAge]: '60', [grace]: '5' })).toEqual({ maxAgeMs: 60_000, graceMs: 5_000 });
  expect(connectionAgeOf({ [maxAge]: '1', [grace]: '0' })).toEqual({ maxAgeMs: 1_000, graceMs: 0 });
  expect(connectionAgeOf({ [maxAge]: '86400', [grace]: '86400' })).toEqual({ maxAgeMs: 86_400_000, graceMs: 86_400_000 });
  expect(connectionAgeOf({ [grace]: '10' })).toEqual({ maxAgeMs: 300_000, graceMs: 10_000 });
});

test.each(['0', 'off', 'OFF', ' off '])('%j turns the maximum age off', (value) => {
  expect(connectionAgeOf({ [maxAge]: value })).toBe('off');
});

test.each(['-1', '86401', '1.5', '5m', 'never', '00', '1e3', 'true'])('maximum age %j is refused, naming the variable', (value) => {
  const error = configErrorOf({ [maxAge]: value });
  expect(error.message).toBe(`Invalid configuration: ${maxAge} must be seconds (1 to 86400), or 0 or off to keep connections, got "${value}"`);
});

test.each(['-1', '86401', '2.5', 'off', '30s'])('grace %j is refused, naming the variable, even with the age off', (value) => {
  for (const age of [undefined, 'off']) {
    const error = configErrorOf({ [maxAge]: age, [grace]: value });
    expect(error.message).toContain(grace);
  }
});
