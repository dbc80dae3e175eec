// Twilio's CallStatus values, as status callbacks report them, onto the states of a leg. `queued`
// and `initiated` are where a stored leg starts, so they move nothing.
import type { CallLegStatus } from '../store/store.js';

// A Map, not an object literal: a carrier's word such as "constructor" must not find Object.prototype.
const legStatusOf = new Map<string, CallLegStatus | 'unchanged'>([
  ['queued', 'unchanged'],
  ['initiated', 'unchanged'],
  ['ringing', 'ringing'],
  ['in-progress', 'in_progress'],
  ['answered', 'in_progress'],
  ['completed', 'completed'],
  ['busy', 'busy'],
  ['no-answer', 'no_answer'],
  ['failed', 'failed'],
  ['canceled', 'canceled'],
]);

/** The leg state a CallStatus stands for; undefined for a word Twilio does not use. */
export const legStatusOfCallStatus = (callStatus: string): CallLegStatus | 'unchanged' | undefined => legStatusOf.get(callStatus.toLowerCase());
