// A campaign's calls as both adapters read them (one row per call state, counted and summed by the
// database) folded into the totals the store answers: the states not ended yet count as active.
import { isEndedStatus, type CallStatusName } from '@voice/contracts/calls';
import type { CampaignCallTotals } from '../store.js';

export interface CampaignStatusRow {
  status: string;
  calls: number;
  connected: number;
  billed_minute_units: number;
  minute_units_charged: number;
  credit_units_charged: number;
}

export function campaignTotalsOf(rows: readonly CampaignStatusRow[]): CampaignCallTotals {
  const totals: CampaignCallTotals = {
    byStatus: { active: 0, completed: 0, no_answer: 0, busy: 0, failed: 0, canceled: 0 },
    connected: 0,
    billedMinuteUnits: 0,
    minuteUnitsCharged: 0,
    creditUnitsCharged: 0,
  };
  for (const row of rows) {
    const status = row.status as CallStatusName;
    totals.byStatus[isEndedStatus(status) ? (status as Exclude<keyof CampaignCallTotals['byStatus'], 'active'>) : 'active'] += Number(row.calls);
    totals.connected += Number(row.connected);
    totals.billedMinuteUnits += Number(row.billed_minute_units);
    totals.minuteUnitsCharged += Number(row.minute_units_charged);
    totals.creditUnitsCharged += Number(row.credit_units_charged);
  }
  return totals;
}
