// Each service's listen address and the URL others reach it at come from one table: the defaults
// are the table's, the variables are VOICE_<SERVICE>_HOST, _PORT and _URL, and a bad value names its variable.
import { ConfigError } from '../src/config/env.js';
import { freePortsEnv, mediaListeners, readListenAddress, readMediaListenAddress, readServiceUrl, servicePorts } from '../src/config/services.js';

test('a service listens on loopback at its own port unless told otherwise', () => {
  expect(readListenAddress({}, 'platform-users')).toEqual({ host: '127.0.0.1', port: 50055 });
  expect(readListenAddress({ VOICE_PLATFORM_USERS_HOST: '0.0.0.0', VOICE_PLATFORM_USERS_PORT: '0' }, 'platform-users')).toEqual({ host: '0.0.0.0', port: 0 });
  expect(() => readListenAddress({ VOICE_TOOLS_PORT: '70000' }, 'tools')).toThrow(/VOICE_TOOLS_PORT/);
});

test('another service is reached at its loopback port unless its URL is set, over http or https only', () => {
  expect(readServiceUrl({}, 'billing')).toBe('http://127.0.0.1:50054');
  expect(readServiceUrl({ VOICE_BILLING_URL: 'https://billing.internal:443' }, 'billing')).toBe('https://billing.internal:443');
  expect(() => readServiceUrl({ VOICE_BILLING_URL: 'ftp://billing' }, 'billing')).toThrow(ConfigError);
});

test('every service and media listener has a port of its own', () => {
  const ports = [...Object.values(servicePorts), ...Object.values(mediaListeners).map((listener) => listener.port)];
  expect(new Set(ports).size).toBe(ports.length);
});

test('a media listener listens on loopback at its own port unless its variables say otherwise', () => {
  expect(readMediaListenAddress({}, 'callsMedia')).toEqual({ host: '127.0.0.1', port: 50061 });
  expect(readMediaListenAddress({}, 'sandboxRuntime')).toEqual({ host: '127.0.0.1', port: 50060 });
  expect(readMediaListenAddress({ VOICE_SANDBOX_RUNTIME_HOST: '0.0.0.0', VOICE_SANDBOX_RUNTIME_PORT: '0' }, 'sandboxRuntime')).toEqual({ host: '0.0.0.0', port: 0 });
  expect(() => readMediaListenAddress({ VOICE_CALLS_MEDIA_PORT: 'x' }, 'callsMedia')).toThrow(/VOICE_CALLS_MEDIA_PORT/);
});

test('a platform beside others frees every port: each service and media listener is asked for port 0', () => {
  const env = freePortsEnv();
  expect(env).toMatchObject({ VOICE_IDENTITY_PORT: '0', VOICE_WEBHOOKS_DELIVERY_PORT: '0', VOICE_CALLS_MEDIA_PORT: '0', VOICE_SANDBOX_RUNTIME_PORT: '0' });
  expect(Object.keys(env)).toHaveLength(Object.keys(servicePorts).length + Object.keys(mediaListeners).length);
  expect(Object.values(env).every((value) => value === '0')).toBe(true);
});
