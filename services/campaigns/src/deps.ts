// What the campaigns service's handlers need; main.ts builds it once.
import type { DialQueue } from './dialer/dial-job.js';
import type { CampaignPeers } from './peers/peers.js';
import type { CampaignStore } from './store/store.js';

export interface CampaignsDeps {
  store: CampaignStore;
  peers: CampaignPeers;
  /** Where a started campaign's leads go to be dialled. */
  dialQueue: DialQueue;
  now(): Date;
}
