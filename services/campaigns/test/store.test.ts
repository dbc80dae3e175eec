// Runs the CampaignStore contract on SQLite always, and on MongoDB when MONGODB_URI is set.
import { newId } from '@voice/runtime/ids';
import { MongoCampaignStore } from '../src/store/mongo.js';
import { SqliteCampaignStore } from '../src/store/sqlite.js';
import { campaignRecord, campaignStoreContract } from './store.contract.js';
import { runStoreContract } from '../../runtime/test/store-contract.js';

runStoreContract({
  name: 'campaigns',
  contract: campaignStoreContract,
  sqlite: (file) => new SqliteCampaignStore(file),
  mongo: (uri, database) => MongoCampaignStore.connect(uri, database),
  sqliteOnly: (file) => {
    test('data survives reopening the file', async () => {
      const path = file();
      const first = new SqliteCampaignStore(path);
      const campaign = campaignRecord(newId());
      await first.insertCampaign(campaign);
      await first.close();
      const second = new SqliteCampaignStore(path);
      try {
        expect(await second.getCampaign(campaign.workspaceId, campaign.id)).toEqual(campaign);
      } finally {
        await second.close();
      }
    });
  },
});
