// A call as it will read after a change that is about to be written: what the events written in
// the same transaction carry.
import type { CallChanges, CallReport, CallView } from '../store/store.js';

const inOrder = (a: CallReport, b: CallReport): number =>
  a.at < b.at ? -1 : a.at > b.at ? 1 : a.source < b.source ? -1 : a.source > b.source ? 1 : a.sequence - b.sequence;

export const callAfter = (call: CallView, changes: CallChanges, reports: CallReport[], now: string): CallView => ({
  ...call,
  ...changes,
  reports: [...call.reports, ...reports].sort(inOrder),
  version: call.version + 1,
  updatedAt: now,
});
