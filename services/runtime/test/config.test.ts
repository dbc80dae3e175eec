// Every environment reader: its default, the values it accepts, and a ConfigError naming the
// variable for anything else.
import { ConfigError, readBool, readEnum, readInt, readOptionalString, readPort, readString, readUrl, type Env } from '../src/config/env.js';

/** Runs `read` and returns the ConfigError it throws (fails the test when it throws nothing else). */
function configErrorOf(read: () => unknown): ConfigError {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError, but nothing was thrown');
}

describe('ConfigError', () => {
  test('names the variable and the problem', () => {
    const error = new ConfigError('VOICE_X', 'must be set');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ConfigError');
    expect(error.message).toBe('Invalid configuration: VOICE_X must be set');
  });
});

describe('readString and readOptionalString', () => {
  test('unset, empty and blank values fall back', () => {
    for (const env of [{}, { NAME: '' }, { NAME: '   ' }] as Env[]) {
      expect(readString(env, 'NAME', 'fallback')).toBe('fallback');
      expect(readOptionalString(env, 'NAME')).toBeUndefined();
    }
  });

  test('a set value is returned trimmed', () => {
    expect(readString({ NAME: '  value ' }, 'NAME', 'fallback')).toBe('value');
    expect(readOptionalString({ NAME: ' value' }, 'NAME')).toBe('value');
  });
});

describe('readInt', () => {
  const bounds = { min: 1, max: 100 };

  test('unset or blank gives the fallback', () => {
    expect(readInt({}, 'COUNT', 7, bounds)).toBe(7);
    expect(readInt({ COUNT: ' ' }, 'COUNT', 7, bounds)).toBe(7);
  });

  test('integers inside the bounds, bounds included', () => {
    expect(readInt({ COUNT: '1' }, 'COUNT', 7, bounds)).toBe(1);
    expect(readInt({ COUNT: '100' }, 'COUNT', 7, bounds)).toBe(100);
    expect(readInt({ COUNT: ' 42 ' }, 'COUNT', 7, bounds)).toBe(42);
    expect(readInt({ OFFSET: '-5' }, 'OFFSET', 0, { min: -10, max: 10 })).toBe(-5);
  });

  test.each(['0', '101', '-1', '99999999999'])('%s is outside 1..100', (value) => {
    const error = configErrorOf(() => readInt({ COUNT: value }, 'COUNT', 7, bounds));
    expect(error.message).toContain('COUNT');
    expect(error.message).toContain('between 1 and 100');
  });

  test.each(['1.5', 'abc', '1e3', '0x10', '12abc', '+5', '1 000', 'NaN', 'Infinity'])('"%s" is not an integer', (value) => {
    const error = configErrorOf(() => readInt({ COUNT: value }, 'COUNT', 7, bounds));
    expect(error.message).toContain('COUNT');
    expect(error.message).toContain('must be an integer');
  });
});

describe('readPort', () => {
  test('default, 0 (any free port) and 65535', () => {
    expect(readPort({}, 'PORT', 8080)).toBe(8080);
    expect(readPort({ PORT: '0' }, 'PORT', 8080)).toBe(0);
    expect(readPort({ PORT: '65535' }, 'PORT', 8080)).toBe(65535);
  });

  test.each(['65536', '-1', 'http', '80.5'])('%s is refused, naming the variable', (value) => {
    expect(configErrorOf(() => readPort({ VOICE_PORT: value }, 'VOICE_PORT', 8080)).message).toContain('VOICE_PORT');
  });
});

describe('readBool', () => {
  test('unset gives the fallback, either way', () => {
    expect(readBool({}, 'FLAG', true)).toBe(true);
    expect(readBool({ FLAG: '' }, 'FLAG', false)).toBe(false);
  });

  test('true/1 and false/0', () => {
    expect(readBool({ FLAG: 'true' }, 'FLAG', false)).toBe(true);
    expect(readBool({ FLAG: '1' }, 'FLAG', false)).toBe(true);
    expect(readBool({ FLAG: 'false' }, 'FLAG', true)).toBe(false);
    expect(readBool({ FLAG: '0' }, 'FLAG', true)).toBe(false);
  });

  test.each(['yes', 'no', 'TRUE', 'on', '2'])('"%s" is refused, naming the variable', (value) => {
    const error = configErrorOf(() => readBool({ VOICE_FLAG: value }, 'VOICE_FLAG', false));
    expect(error.message).toContain('VOICE_FLAG');
    expect(error.message).toContain('true or false');
  });
});

describe('readUrl', () => {
  const protocols = ['http:', 'https:'];

  test('unset gives the fallback, or undefined without one', () => {
    expect(readUrl({}, 'URL', 'http://localhost:3000', protocols)).toBe('http://localhost:3000');
    expect(readUrl({}, 'URL', undefined, protocols)).toBeUndefined();
  });

  test('a URL with an allowed protocol is returned as given', () => {
    expect(readUrl({ URL: 'https://api.example.com/base' }, 'URL', undefined, protocols)).toBe('https://api.example.com/base');
    expect(readUrl({ NATS: 'nats://127.0.0.1:4222' }, 'NATS', undefined, ['nats:'])).toBe('nats://127.0.0.1:4222');
  });

  test('another protocol is refused, naming the variable and the allowed protocols', () => {
    const error = configErrorOf(() => readUrl({ VOICE_URL: 'ftp://example.com' }, 'VOICE_URL', undefined, protocols));
    expect(error.message).toContain('VOICE_URL');
    expect(error.message).toContain('http: or https:');
    expect(error.message).toContain('ftp:');
  });

  test('something that is not a URL is refused', () => {
    const error = configErrorOf(() => readUrl({ VOICE_URL: 'not a url' }, 'VOICE_URL', undefined, protocols));
    expect(error.message).toContain('VOICE_URL');
    expect(error.message).toContain('must be a URL');
  });

  test('a bad fallback is refused too, naming the variable', () => {
    expect(configErrorOf(() => readUrl({}, 'VOICE_URL', 'mongodb://x', protocols)).message).toContain('VOICE_URL');
  });
});

describe('readEnum', () => {
  const levels = ['debug', 'info', 'warn'] as const;

  test('unset gives the fallback; an allowed value is returned', () => {
    expect(readEnum({}, 'LEVEL', 'info', levels)).toBe('info');
    expect(readEnum({ LEVEL: 'warn' }, 'LEVEL', 'info', levels)).toBe('warn');
    expect(readEnum({ LEVEL: ' debug ' }, 'LEVEL', 'info', levels)).toBe('debug');
  });

  test.each(['verbose', 'INFO', 'info,warn'])('"%s" is refused, listing the allowed values', (value) => {
    const error = configErrorOf(() => readEnum({ VOICE_LEVEL: value }, 'VOICE_LEVEL', 'info', levels));
    expect(error.message).toContain('VOICE_LEVEL');
    expect(error.message).toContain('debug, info, warn');
  });
});
