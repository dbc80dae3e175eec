// A campaign's call totals as SummarizeCampaignCalls answers them.
import { create } from '@bufbuild/protobuf';
import { CampaignCallSummarySchema, type CampaignCallSummary } from '@voice/proto/voice/calls/v1/calls';
import type { CampaignCallTotals } from '../store/store.js';

export const presentCampaignCallSummary = (totals: CampaignCallTotals): CampaignCallSummary =>
  create(CampaignCallSummarySchema, {
    placed: Object.values(totals.byStatus).reduce((sum, count) => sum + count, 0),
    connected: totals.connected,
    active: totals.byStatus.active,
    completed: totals.byStatus.completed,
    voicemail: totals.byStatus.voicemail,
    noAnswer: totals.byStatus.no_answer,
    busy: totals.byStatus.busy,
    failed: totals.byStatus.failed,
    canceled: totals.byStatus.canceled,
    billedMinuteUnits: BigInt(totals.billedMinuteUnits),
    minuteUnitsCharged: BigInt(totals.minuteUnitsCharged),
    creditUnitsCharged: BigInt(totals.creditUnitsCharged),
  });
