// A campaign's calls as both adapters read them (one row per call state and end reason, counted and
// summed by the database) folded into the totals the store answers: the states not ended yet count as
// active, and a completed call a voicemail box answered as voicemail.
import { isEndedStatus, voicemailEndReason, type CallStatusName } from '@voice/contracts/calls';
import type { CampaignCallTotals } from '../store.js';

export interface CampaignStatusRow {
  status: string;
  end_reason: string | null;
  calls: number;
  connected: number;
  billed_minute_units: number;
  minute_units_charged: number;
  credit_units_charged: number;
}

export function campaignTotalsOf(rows: readonly CampaignStatusRow[]): CampaignCallTotals {
  const totals: CampaignCallTotals = {
    byStatus: { active: 0, completed: 0, voicemail: 0, no_answer: 0, busy: 0, failed: 0, canceled: 0 },
    connected: 0,
    billedMinuteUnits: 0,
    minuteUnitsCharged: 0,
    creditUnitsCharged: 0,
  };
  for (const row of rows) {
    const status = row.status as CallStatusName;
    totals.byStatus[stateOf(status, row.end_reason)] += Number(row.calls);
    totals.connected += Number(row.connected);
    totals.billedMinuteUnits += Number(row.billed_minute_units);
    totals.minuteUnitsCharged += Number(row.minute_units_charged);
    totals.creditUnitsCharged += Number(row.credit_units_charged);
  }
  return totals;
}

function stateOf(status: CallStatusName, endReason: string | null): keyof CampaignCallTotals['byStatus'] {
  if (!isEndedStatus(status)) return 'active';
  if (status === 'completed' && endReason === voicemailEndReason) return 'voicemail';
  return status as Exclude<keyof CampaignCallTotals['byStatus'], 'active' | 'voicemail'>;
}
