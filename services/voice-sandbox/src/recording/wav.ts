// The sandbox's call recordings: a RIFF/WAVE file of 16-bit PCM, 8 kHz mono, as long as the call.
// The caller was silent (the sandbox carrier streams silence), so the samples are silence too.

export const wavSampleRate = 8000;
const bytesPerSample = 2;
const headerBytes = 44;

/** A valid WAV file of `seconds` of silence. */
export function silentWav(seconds: number): Buffer {
  const dataBytes = Math.max(0, Math.round(seconds * wavSampleRate)) * bytesPerSample;
  const wav = Buffer.alloc(headerBytes + dataBytes);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(headerBytes - 8 + dataBytes, 4);
  wav.write('WAVE', 8, 'ascii');
  wav.write('fmt ', 12, 'ascii');
  wav.writeUInt32LE(16, 16);
  // PCM, one channel.
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(wavSampleRate, 24);
  wav.writeUInt32LE(wavSampleRate * bytesPerSample, 28);
  wav.writeUInt16LE(bytesPerSample, 32);
  wav.writeUInt16LE(bytesPerSample * 8, 34);
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(dataBytes, 40);
  return wav;
}
