// The campaigns' schedules: a periodic job of the dialer (one replica at a time, on a KV lease) that
// starts each campaign whose next_run_at has come, exactly as `POST /campaigns/{id}/start` does. Each
// occurrence is claimed first by moving next_run_at on to the following one with a conditional write,
// so it fires once even when two dialers (or a lease handed over mid-run) see it due; an occurrence
// whose start is refused (running already, no lead left to call) is skipped and logged. Occurrences
// missed while no dialer ran fire once, when one runs again.
import type { PeriodicJob } from '@voice/runtime/jobs';
import { ConnectError } from '@connectrpc/connect';
import type { Logger } from '@voice/runtime/logger';
import { startCampaign, type StartDeps } from '../campaigns/start-campaign.js';
import { nextRunAt } from '../domain/schedule.js';
import type { CampaignRecord } from '../store/store.js';

/** How often the job looks for due campaigns: a schedule has minute precision, so a start is at most this late. */
export const scheduleCheckPeriodMs = 10_000;

export function campaignScheduleJob(deps: StartDeps & { logger: Logger }): PeriodicJob {
  return {
    name: 'campaigns.schedules',
    periodMs: scheduleCheckPeriodMs,
    run: async ({ now, signal, batchSize }) => {
      const due = await deps.store.listDueCampaigns(now.toISOString(), batchSize);
      let fired = 0;
      for (const campaign of due) {
        if (signal.aborted) break;
        if (await fire(deps, campaign, now)) fired += 1;
      }
      return fired;
    },
  };
}

/** Claims the campaign's due occurrence and starts it; answers whether this replica claimed it. */
async function fire(deps: StartDeps & { logger: Logger }, campaign: CampaignRecord, now: Date): Promise<boolean> {
  const occurrence = campaign.nextRunAt!;
  const claimed = await deps.store.advanceSchedule(campaign.workspaceId, campaign.id, occurrence, nextRunAt(campaign.settings.schedule, now));
  if (!claimed) return false;
  const context = { campaignId: campaign.id, workspaceId: campaign.workspaceId, occurrence };
  try {
    await startCampaign(deps, campaign.workspaceId, campaign.id);
    deps.logger.info('scheduled campaign started', context);
  } catch (error) {
    // The same refusals as the API's start (running already, no lead left, deleted meanwhile): this occurrence is skipped.
    if (!(error instanceof ConnectError)) throw error;
    deps.logger.info('scheduled start skipped', { ...context, reason: error.rawMessage });
  }
  return true;
}
