// The credit view in MongoDB: one document per workspace holds billing's newest wallet report
// and a reserved_units counter that moves in the same transaction as the open reservations it sums.
import type { ClientSession } from 'mongodb';
import { isDuplicateKey } from '@voice/runtime';
import type { CreditStore } from '../composed.js';
import type { CreditView, Reservation, WalletView } from '../store.js';
import type { CreditViewDocument } from './documents.js';
import { MongoStorePart } from './part.js';

const creditViewOf = (doc: CreditViewDocument | null): CreditView => ({
  balanceUnits: doc?.balance_units ?? 0,
  version: doc?.version ?? 0,
  issuer: doc?.issuer ?? false,
  reservedUnits: doc?.reserved_units ?? 0,
});

export class MongoCreditStore extends MongoStorePart implements CreditStore {
  async applyWalletView(wallet: WalletView, settledReservationId?: string): Promise<void> {
    await this.ensureView(wallet.workspaceId);
    await this.transaction(async (session) => {
      await this.collections.creditViews.updateOne(
        { _id: wallet.workspaceId, $or: [{ version: { $exists: false } }, { version: { $lt: wallet.version } }] },
        { $set: { balance_units: wallet.creditUnits, version: wallet.version, issuer: wallet.issuer } },
        { session },
      );
      if (settledReservationId !== undefined) await this.closeReservation(wallet.workspaceId, settledReservationId, session);
    });
  }

  async creditView(workspaceId: string): Promise<CreditView> {
    return this.currentView(workspaceId);
  }

  async currentView(workspaceId: string, session?: ClientSession): Promise<CreditView> {
    return creditViewOf(await this.collections.creditViews.findOne({ _id: workspaceId }, { session }));
  }

  /**
   * Creates the workspace's view document where it is missing. Outside any transaction: two
   * transactions inserting the same document would fail, where two plain upserts both succeed.
   */
  async ensureView(workspaceId: string): Promise<void> {
    try {
      await this.collections.creditViews.updateOne({ _id: workspaceId }, { $setOnInsert: { reserved_units: 0 } }, { upsert: true });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
  }

  /**
   * Opens the reservation if it fits (the rule of reservationFits in ../rules.ts, evaluated by the
   * server): the check and the increment are one write to the view document, so concurrent
   * reservations of a workspace conflict there and run one after the other. False when it does not fit.
   */
  async reserve(reservation: Reservation, messageId: string, session: ClientSession): Promise<boolean> {
    const spendable = { $subtract: [{ $ifNull: ['$balance_units', 0] }, '$reserved_units'] };
    const reserved = await this.collections.creditViews.findOneAndUpdate(
      { _id: reservation.workspaceId, $or: [{ issuer: true }, { $expr: { $gte: [spendable, reservation.creditUnits] } }] },
      { $inc: { reserved_units: reservation.creditUnits } },
      { session },
    );
    if (!reserved) return false;
    await this.collections.reservations.insertOne(
      { _id: reservation.id, workspace_id: reservation.workspaceId, credit_units: reservation.creditUnits, message_id: messageId },
      { session },
    );
    return true;
  }

  /** Closing an already closed (or never opened) reservation changes nothing. */
  async closeReservation(workspaceId: string, id: string, session: ClientSession): Promise<void> {
    const closed = await this.collections.reservations.findOneAndDelete({ _id: id, workspace_id: workspaceId }, { session });
    if (closed) await this.collections.creditViews.updateOne({ _id: workspaceId }, { $inc: { reserved_units: -closed.credit_units } }, { session });
  }
}
