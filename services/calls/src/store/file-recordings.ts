// Recordings as files under the data directory (the embedded mode): one WAV per call, written to a
// temporary name and renamed into place, so a reader never sees half a recording; 0600 in a 0700
// directory. The content type is kept beside it.
import { createReadStream, createWriteStream } from 'node:fs';
import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { ensurePrivateDirectory, privateFileMode } from '@voice/runtime/private-files';
import { isUuid, newId } from '@voice/runtime/ids';
import { boundedChunks } from './bounded-chunks.js';
import type { RecordingInfo, RecordingRead } from './store.js';

export class FileRecordings {
  constructor(private readonly directory: string) {}

  /** Only call ids name files: nothing a caller sends becomes a path. */
  private path(callId: string, suffix = '.wav'): string {
    if (!isUuid(callId)) throw new Error('a recording is named by its call id');
    return join(this.directory, `${callId}${suffix}`);
  }

  async save(callId: string, contentType: string, chunks: AsyncIterable<Uint8Array>, maxBytes: number): Promise<number> {
    ensurePrivateDirectory(this.directory);
    const partial = join(this.directory, `${newId()}.partial`);
    const counted = { bytes: 0 };
    try {
      await pipeline(Readable.from(boundedChunks(chunks, maxBytes, counted)), createWriteStream(partial, { mode: privateFileMode, flags: 'wx' }));
      await writeFile(this.path(callId, '.type'), contentType, { mode: privateFileMode });
      await rename(partial, this.path(callId));
    } finally {
      await rm(partial, { force: true });
    }
    return counted.bytes;
  }

  async describe(callId: string): Promise<RecordingInfo | undefined> {
    let sizeBytes: number;
    try {
      sizeBytes = (await stat(this.path(callId))).size;
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
      throw error;
    }
    const contentType = await readFile(this.path(callId, '.type'), 'utf8').catch(() => 'audio/wav');
    return { sizeBytes, contentType };
  }

  async open(callId: string, range?: { start: number; end: number }): Promise<RecordingRead | undefined> {
    const info = await this.describe(callId);
    return info && { ...info, body: createReadStream(this.path(callId), range) };
  }

  async remove(callId: string): Promise<boolean> {
    const existed = await stat(this.path(callId)).then(
      () => true,
      () => false,
    );
    await rm(this.path(callId), { force: true });
    await rm(this.path(callId, '.type'), { force: true });
    return existed;
  }
}
