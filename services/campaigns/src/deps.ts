// What the campaigns service's handlers need; main.ts builds it once.
import type { CampaignCalls } from './peers/campaign-calls.js';
import type { DialQueue } from './dialer/dial-job.js';
import type { CampaignPeers } from './peers/peers.js';
import type { CampaignStore } from './store/store.js';

export interface CampaignsDeps {
  store: CampaignStore;
  peers: CampaignPeers;
  /** A campaign's calls counted by the calls service (GetCampaign's progress). */
  campaignCalls: CampaignCalls;
  /** Where a started campaign's leads go to be dialled. */
  dialQueue: DialQueue;
  now(): Date;
}
