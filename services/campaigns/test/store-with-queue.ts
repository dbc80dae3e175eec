// A real SQLite campaigns store in a directory of its own and the in-process dial queue, for the tests
// of what the dialer's jobs read and enqueue; close() ends both and removes the directory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InProcessEventStream } from '@voice/runtime/events';
import { createLogger } from '@voice/runtime/logger';
import { openDialQueue, type DialQueue } from '../src/dialer/dial-job.js';
import { SqliteCampaignStore } from '../src/store/sqlite.js';

export interface StoreWithQueue {
  store: SqliteCampaignStore;
  events: InProcessEventStream;
  queue: DialQueue;
  close(): Promise<void>;
}

export async function openStoreWithQueue(name: string): Promise<StoreWithQueue> {
  const silent = createLogger({ service: 'test', level: 'silent' });
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  const store = new SqliteCampaignStore(join(dir, 'campaigns.sqlite'));
  const events = new InProcessEventStream(silent);
  const queue = await openDialQueue(events, silent);
  return {
    store,
    events,
    queue,
    close: async () => {
      await events.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
