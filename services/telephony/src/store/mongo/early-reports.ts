// Delivery reports in MongoDB for a carrier id no message holds yet (a carrier can report before the
// transaction that records its answer commits), kept until the send's acceptance takes them.
import type { ClientSession, Collection } from 'mongodb';
import { deleteBatch } from '@voice/runtime/store/mongo';
import type { DeliveryUpdate } from '../store.js';
import { failureReasonOf } from '../rules.js';
import type { EarlyReportDocument } from './documents.js';

const earlyReportId = (carrierConnectionId: string | null, carrierMessageId: string): string => `${carrierConnectionId ?? ''}:${carrierMessageId}`;

export class MongoEarlyReports {
  constructor(private readonly earlyReports: Collection<EarlyReportDocument>) {}

  async keep(carrierConnectionId: string | null, carrierMessageId: string, update: DeliveryUpdate, session: ClientSession): Promise<void> {
    await this.earlyReports.updateOne(
      { _id: earlyReportId(carrierConnectionId, carrierMessageId) },
      { $push: { reports: { status: update.status, failure_reason: failureReasonOf(update), at: update.at } }, $setOnInsert: { received_at: update.at } },
      { upsert: true, session },
    );
  }

  /** Whether reports are kept for the carrier id, as committed now (outside any transaction). */
  async any(carrierConnectionId: string | null, carrierMessageId: string): Promise<boolean> {
    return (await this.earlyReports.countDocuments({ _id: earlyReportId(carrierConnectionId, carrierMessageId) }, { limit: 1 })) > 0;
  }

  /** The reports kept for the carrier id, in the order they came, removing them. */
  async take(carrierConnectionId: string | null, carrierMessageId: string, session: ClientSession): Promise<DeliveryUpdate[]> {
    const kept = await this.earlyReports.findOneAndDelete({ _id: earlyReportId(carrierConnectionId, carrierMessageId) }, { session });
    return (kept?.reports ?? []).map((report) => ({ status: report.status, failureReason: report.failure_reason, at: report.at }));
  }

  prune(receivedBefore: string, limit: number): Promise<number> {
    return deleteBatch(this.earlyReports, { received_at: { $lt: receivedBefore } }, { received_at: 1 }, limit);
  }
}
