// The schedules' part of the CampaignStore contract (run by store.contract.ts on every adapter): a
// campaign's next_run_at is stored with it and changed by revision-checked writes, the due campaigns
// of every workspace are listed earliest first, and an occurrence is claimed by one conditional move.
import type { CampaignStore } from '../src/store/store.js';
import { campaignRecord } from './store.contract.js';

export function campaignScheduleContract(current: () => { store: CampaignStore; workspace: string; otherWorkspace: string }): void {
  describe('schedules', () => {
    const schedule = { cron: '0 9 * * 1-5', time_zone: 'Europe/Berlin' };

    test('a schedule and its next run read back, and a revision-checked write sets or clears next_run_at', async () => {
      const { store, workspace } = current();
      const campaign = campaignRecord(workspace, { status: 'scheduled', nextRunAt: '2026-01-05T08:00:00.000Z' });
      campaign.settings.schedule = schedule;
      await store.insertCampaign(campaign);
      expect(await store.getCampaign(workspace, campaign.id)).toEqual(campaign);
      const moved = await store.updateCampaign(workspace, campaign.id, 1, { nextRunAt: '2026-01-06T08:00:00.000Z' }, '2026-01-01T00:00:10.000Z');
      expect(moved).toMatchObject({ kind: 'updated', record: { nextRunAt: '2026-01-06T08:00:00.000Z', revision: 2, status: 'scheduled' } });
      const cleared = await store.updateCampaign(workspace, campaign.id, 2, { status: 'draft', settings: { ...campaign.settings, schedule: null }, nextRunAt: null }, '2026-01-01T00:00:11.000Z');
      expect(cleared).toMatchObject({ kind: 'updated', record: { nextRunAt: null, status: 'draft', settings: { schedule: null } } });
      // A write that does not name it leaves it.
      const renamed = await store.updateCampaign(workspace, campaign.id, 3, { settings: { ...campaign.settings, name: 'Later' } }, '2026-01-01T00:00:12.000Z');
      expect(renamed).toMatchObject({ kind: 'updated', record: { nextRunAt: null } });
    });

    test('due campaigns of every workspace are listed earliest first, up to the limit; later and unscheduled ones are not', async () => {
      const { store, workspace, otherWorkspace } = current();
      const at = (iso: string) => campaignRecord(workspace, { status: 'scheduled', nextRunAt: iso });
      const second = at('2026-01-05T08:00:00.000Z');
      const first = campaignRecord(otherWorkspace, { status: 'stopped', nextRunAt: '2026-01-05T07:59:00.000Z' });
      const third = at('2026-01-05T08:01:00.000Z');
      const later = at('2026-01-05T08:02:00.001Z');
      const unscheduled = campaignRecord(workspace);
      for (const campaign of [second, first, third, later, unscheduled]) await store.insertCampaign(campaign);
      const mine = new Set([first.id, second.id, third.id, later.id, unscheduled.id]);
      const due = (await store.listDueCampaigns('2026-01-05T08:02:00.000Z', 100)).filter((campaign) => mine.has(campaign.id));
      expect(due.map((campaign) => campaign.id)).toEqual([first.id, second.id, third.id]);
      expect(due[0]).toEqual(first);
      expect((await store.listDueCampaigns('2026-01-05T08:02:00.000Z', 2)).length).toBeLessThanOrEqual(2);
    });

    test('an occurrence is claimed once: the move from its time succeeds for one of two racing claims, and keeps the revision', async () => {
      const { store, workspace, otherWorkspace } = current();
      const campaign = campaignRecord(workspace, { status: 'scheduled', nextRunAt: '2026-01-05T08:00:00.000Z' });
      await store.insertCampaign(campaign);
      const claims = await Promise.all([
        store.advanceSchedule(workspace, campaign.id, '2026-01-05T08:00:00.000Z', '2026-01-06T08:00:00.000Z'),
        store.advanceSchedule(workspace, campaign.id, '2026-01-05T08:00:00.000Z', '2026-01-06T08:00:00.000Z'),
      ]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await store.getCampaign(workspace, campaign.id)).toMatchObject({ nextRunAt: '2026-01-06T08:00:00.000Z', revision: 1, updatedAt: campaign.updatedAt });
      // A stale time, another workspace's id, and a schedule's end (null).
      expect(await store.advanceSchedule(workspace, campaign.id, '2026-01-05T08:00:00.000Z', '2026-01-07T08:00:00.000Z')).toBe(false);
      expect(await store.advanceSchedule(otherWorkspace, campaign.id, '2026-01-06T08:00:00.000Z', null)).toBe(false);
      expect(await store.advanceSchedule(workspace, campaign.id, '2026-01-06T08:00:00.000Z', null)).toBe(true);
      expect(await store.getCampaign(workspace, campaign.id)).toMatchObject({ nextRunAt: null });
      expect((await store.listDueCampaigns('2030-01-01T00:00:00.000Z', 100)).some((due) => due.id === campaign.id)).toBe(false);
    });
  });
}
