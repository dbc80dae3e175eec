// The sandbox's call recordings: a RIFF/WAVE file of 16-bit PCM, 8 kHz mono, as long as the call.
// The caller was silent (the sandbox carrier streams silence), so the samples are silence too.
import { recordingChunkMaxBytes } from '@voice/runtime/call-recordings';

export const wavSampleRate = 8000;
const bytesPerSample = 2;
const headerBytes = 44;
/** Read-only: every recording's samples are views of it. */
const silence = Buffer.alloc(recordingChunkMaxBytes);

/**
 * A valid WAV file of `seconds` of silence, in parts: its header, then its samples at most one upload
 * chunk at a time, so a call of an hour (57.6 MB) is never held whole.
 */
export function* silentWav(seconds: number): Generator<Buffer> {
  const dataBytes = Math.max(0, Math.round(seconds * wavSampleRate)) * bytesPerSample;
  const header = Buffer.alloc(headerBytes);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(headerBytes - 8 + dataBytes, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  // PCM, one channel.
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(wavSampleRate, 24);
  header.writeUInt32LE(wavSampleRate * bytesPerSample, 28);
  header.writeUInt16LE(bytesPerSample, 32);
  header.writeUInt16LE(bytesPerSample * 8, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  yield header;
  for (let left = dataBytes; left > 0; left -= silence.length) yield silence.subarray(0, Math.min(left, silence.length));
}
