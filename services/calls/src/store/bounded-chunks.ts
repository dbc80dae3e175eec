// A recording's chunks as they are stored: counted, and refused past the size the service keeps.
import { RecordingTooLarge } from './store.js';

export async function* boundedChunks(chunks: AsyncIterable<Uint8Array>, maxBytes: number, counted: { bytes: number }): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) {
    counted.bytes += chunk.byteLength;
    if (counted.bytes > maxBytes) throw new RecordingTooLarge(maxBytes);
    yield chunk;
  }
}
