// What the campaigns service's handlers need; main.ts builds it once.
import type { CallbackQueue } from './dialer/callback-job.js';
import type { DialQueue } from './dialer/dial-job.js';
import type { CampaignPeers } from './peers/peers.js';
import type { CampaignStore } from './store/store.js';

export interface CampaignsDeps {
  store: CampaignStore;
  peers: CampaignPeers;
  /** Where a started campaign's leads go to be dialled. */
  dialQueue: DialQueue;
  /** Where callbacks due soon go to be placed. */
  callbackQueue: CallbackQueue;
  now(): Date;
}
