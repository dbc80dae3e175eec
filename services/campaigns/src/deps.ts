// What the campaigns service's handlers need; main.ts builds it once.
import type { CampaignPeers } from './peers/peers.js';
import type { CampaignStore } from './store/store.js';

export interface CampaignsDeps {
  store: CampaignStore;
  peers: CampaignPeers;
  now(): Date;
}
