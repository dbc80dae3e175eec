// The due-callbacks job: a periodic job (one dialer at a time, on a KV lease) that enqueues every
// callback due within callbackEnqueueAheadMs, and every one claimed whose call was never recorded.
// The queue drops the jobs it holds already (`callback:<id>`), so a run adds the callbacks that came
// due since the last one and the lost ones: a create that stopped between its commit and its job.
import type { PeriodicJob } from '@voice/runtime/jobs';
import type { CampaignStore } from '../store/store.js';
import { callbackEnqueueAheadMs, enqueueCallback, type CallbackQueue } from './callback-job.js';

/** Well under callbackEnqueueAheadMs: each callback is enqueued a few runs before it is due. */
export const callbackScanPeriodMs = 60_000;

const pageSize = 500;

export function callbackScanJob(deps: { store: Pick<CampaignStore, 'callbacks'>; queue: CallbackQueue; periodMs?: number }): PeriodicJob {
  return {
    name: 'campaigns.due-callbacks',
    periodMs: deps.periodMs ?? callbackScanPeriodMs,
    // One run enqueues everything due; there is no batch to follow at once.
    batchSize: Number.MAX_SAFE_INTEGER,
    run: async ({ now, signal }) => {
      const dueBy = new Date(now.getTime() + callbackEnqueueAheadMs).toISOString();
      let enqueued = 0;
      // Enqueueing changes no callback, so the pages stay put under the offset.
      for (let offset = 0; !signal.aborted; offset += pageSize) {
        const due = await deps.store.callbacks.listDueCallbacks(dueBy, { limit: pageSize, offset });
        for (const callback of due) if (!(await enqueueCallback(deps.queue, callback)).duplicate) enqueued += 1;
        if (due.length < pageSize) break;
      }
      return enqueued;
    },
  };
}
