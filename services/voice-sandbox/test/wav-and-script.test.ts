// The runtime's pure parts: the WAV file it records and the scripts it accepts.
import { recordingChunkMaxBytes } from '@voice/runtime/call-recordings';
import { silentWav } from '../src/recording/wav.js';
import { defaultScript, scriptOf, voicemailScript } from '../src/conversation/script.js';

test('a silent WAV is a RIFF/WAVE PCM file of 16-bit 8 kHz mono samples, as long as asked, in parts of at most an upload chunk', () => {
  const parts = [...silentWav(3)];
  expect(parts.every((part) => part.length > 0 && part.length <= recordingChunkMaxBytes)).toBe(true);
  const wav = Buffer.concat(parts);
  expect(wav.length).toBe(44 + 3 * 8000 * 2);
  expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
  expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
  expect(wav.toString('ascii', 8, 16)).toBe('WAVEfmt ');
  expect([wav.readUInt32LE(16), wav.readUInt16LE(20), wav.readUInt16LE(22), wav.readUInt32LE(24), wav.readUInt32LE(28), wav.readUInt16LE(32), wav.readUInt16LE(34)]).toEqual([16, 1, 1, 8000, 16000, 2, 16]);
  expect(wav.toString('ascii', 36, 40)).toBe('data');
  expect(wav.readUInt32LE(40)).toBe(48_000);
  expect(wav.subarray(44).every((byte) => byte === 0)).toBe(true);
});

test('without a script the default one plays; a given one is checked step by step', () => {
  expect(scriptOf(undefined)).toEqual({ ok: true, steps: defaultScript });
  expect(scriptOf({ other: 1 })).toEqual({ ok: true, steps: defaultScript });
  // A machine answered: the voicemail script, unless the metadata gives one.
  expect(scriptOf(undefined, 'machine_start')).toEqual({ ok: true, steps: voicemailScript });
  expect(scriptOf(undefined, 'human')).toEqual({ ok: true, steps: defaultScript });
  expect(scriptOf({ sandbox_script: [{ hangup: 'caller' }] }, 'machine_start')).toEqual({ ok: true, steps: [{ hangup: 'caller' }] });
  expect(scriptOf({ sandbox_script: [{ voicemail: false }] })).toMatchObject({ ok: false });
  expect(scriptOf({ sandbox_script: [{ tool: { name: 'lookup' } }, { hangup: 'caller' }] })).toEqual({ ok: true, steps: [{ tool: { name: 'lookup', arguments: {} } }, { hangup: 'caller' }] });
  expect(scriptOf({ sandbox_script: [] })).toMatchObject({ ok: false, problem: expect.stringContaining('metadata.sandbox_script') });
  expect(scriptOf({ sandbox_script: [{ hangup: 'nobody' }] })).toMatchObject({ ok: false, problem: expect.stringContaining('[0]') });
  expect(scriptOf({ sandbox_script: [{ say: 'hi', reply: 'both' }] })).toMatchObject({ ok: false });
  expect(scriptOf({ sandbox_script: 'say hello' })).toMatchObject({ ok: false });
});
