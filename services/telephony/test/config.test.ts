// The telephony settings that depend on each other: the recovery age of interrupted sends must
// exceed the longest a send can take with the configured carrier timeout.
import { readTelephonyConfig } from '../src/config.js';

const base = { VOICE_INTERNAL_SECRET: 'a'.repeat(64) };

test('by default a send is recovered after twice the longest send (66 s with the 10 s carrier timeout)', () => {
  // 2 s balance check + 3 attempts of 10 s + 200 ms and 400 ms back-offs = 32.6 s, rounded up to 33 s.
  expect(readTelephonyConfig(base).sendRecoveryAfterMs).toBe(66_000);
});

test('with a short carrier timeout the default is never below a minute', () => {
  expect(readTelephonyConfig({ ...base, VOICE_CARRIER_TIMEOUT_MS: '1000' }).sendRecoveryAfterMs).toBe(60_000);
});

test('VOICE_SMS_RECOVERY_AFTER_SECONDS may be as short as one second beyond the longest send, and no shorter', () => {
  // 2 s + 3 × 1 s + 0.6 s = 5.6 s, rounded up to 6 s.
  const short = { ...base, VOICE_CARRIER_TIMEOUT_MS: '1000' };
  expect(readTelephonyConfig({ ...short, VOICE_SMS_RECOVERY_AFTER_SECONDS: '7' }).sendRecoveryAfterMs).toBe(7_000);
  expect(() => readTelephonyConfig({ ...short, VOICE_SMS_RECOVERY_AFTER_SECONDS: '6' })).toThrow(/VOICE_SMS_RECOVERY_AFTER_SECONDS must be between 7 and 86400, got 6/);
  expect(() => readTelephonyConfig({ ...base, VOICE_SMS_RECOVERY_AFTER_SECONDS: '33' })).toThrow(/VOICE_SMS_RECOVERY_AFTER_SECONDS must be between 34 and 86400, got 33/);
  expect(() => readTelephonyConfig({ ...base, VOICE_SMS_RECOVERY_AFTER_SECONDS: 'soon' })).toThrow(/VOICE_SMS_RECOVERY_AFTER_SECONDS must be an integer/);
});

test('VOICE_SIP_CHECK_TIMEOUT_MS is 5 s by default, 100 ms to 30 s when set', () => {
  expect(readTelephonyConfig(base).sipCheckTimeoutMs).toBe(5_000);
  expect(readTelephonyConfig({ ...base, VOICE_SIP_CHECK_TIMEOUT_MS: '250' }).sipCheckTimeoutMs).toBe(250);
  expect(() => readTelephonyConfig({ ...base, VOICE_SIP_CHECK_TIMEOUT_MS: '60000' })).toThrow(/VOICE_SIP_CHECK_TIMEOUT_MS must be between 100 and 30000/);
});

test("the voice runtime's stream endpoint is a WebSocket URL, the sandbox runtime's on this machine by default", () => {
  expect(readTelephonyConfig(base).mediaUrl).toBe('ws://127.0.0.1:50060/media');
  expect(readTelephonyConfig({ ...base, VOICE_MEDIA_URL: 'wss://voice-runtime.example/media' }).mediaUrl).toBe('wss://voice-runtime.example/media');
  expect(() => readTelephonyConfig({ ...base, VOICE_MEDIA_URL: 'https://voice-runtime.example/media' })).toThrow(/VOICE_MEDIA_URL/);
});

test('VOICE_CALLER_ID_SMS_FROM and VOICE_CALLER_ID_CALL_FROM (the SMS sender by default) are phone numbers, normalised to E.164', () => {
  expect(readTelephonyConfig(base).callerIdSmsFrom).toBe('+15005550006');
  expect(readTelephonyConfig({ ...base, VOICE_CALLER_ID_SMS_FROM: '+1 415-555-0100' }).callerIdSmsFrom).toBe('+14155550100');
  expect(() => readTelephonyConfig({ ...base, VOICE_CALLER_ID_SMS_FROM: '4155550100' })).toThrow(/VOICE_CALLER_ID_SMS_FROM/);
  expect(readTelephonyConfig({ ...base, VOICE_CALLER_ID_SMS_FROM: '+14155550100' }).callerIdCallFrom).toBe('+14155550100');
  expect(readTelephonyConfig({ ...base, VOICE_CALLER_ID_CALL_FROM: '+1 415-555-0111' }).callerIdCallFrom).toBe('+14155550111');
  expect(() => readTelephonyConfig({ ...base, VOICE_CALLER_ID_CALL_FROM: 'office' })).toThrow(/VOICE_CALLER_ID_CALL_FROM/);
});

test('caller ID codes: 3 per number a day and 10 per workspace an hour by default; operators set codes and windows', () => {
  expect(readTelephonyConfig(base).codeSendLimits).toEqual({ perNumber: { codes: 3, windowSeconds: 86_400 }, perWorkspace: { codes: 10, windowSeconds: 3_600 } });
  const set = readTelephonyConfig({
    ...base,
    VOICE_CALLER_ID_CODES_PER_NUMBER: '5',
    VOICE_CALLER_ID_CODES_PER_NUMBER_WINDOW_SECONDS: '3600',
    VOICE_CALLER_ID_CODES_PER_WORKSPACE: '50',
    VOICE_CALLER_ID_CODES_PER_WORKSPACE_WINDOW_SECONDS: '600',
  });
  expect(set.codeSendLimits).toEqual({ perNumber: { codes: 5, windowSeconds: 3_600 }, perWorkspace: { codes: 50, windowSeconds: 600 } });
  expect(() => readTelephonyConfig({ ...base, VOICE_CALLER_ID_CODES_PER_NUMBER: '0' })).toThrow(/VOICE_CALLER_ID_CODES_PER_NUMBER must be between 1 and/);
  expect(() => readTelephonyConfig({ ...base, VOICE_CALLER_ID_CODES_PER_WORKSPACE_WINDOW_SECONDS: '30' })).toThrow(/VOICE_CALLER_ID_CODES_PER_WORKSPACE_WINDOW_SECONDS must be between 60 and 604800/);
});
