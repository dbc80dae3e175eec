// The credit view in SQLite: billing's newest wallet report per workspace, and the open
// reservations whose sum is what sends accepted here have spent ahead of billing.
import type { SqliteDatabase } from '@voice/runtime';
import type { CreditStore } from '../composed.js';
import type { CreditView, Reservation, WalletView } from '../store.js';
import type { Sql } from './statements.js';

interface CreditViewRow {
  balance_units: number;
  version: number;
  issuer: number;
}

export class SqliteCreditStore implements CreditStore {
  constructor(private readonly db: SqliteDatabase, private readonly sql: Sql) {}

  async applyWalletView(wallet: WalletView, settledReservationId?: string): Promise<void> {
    this.db.transaction(() => {
      this.sql(
        `INSERT INTO credit_views (workspace_id, balance_units, version, issuer) VALUES (?, ?, ?, ?)
         ON CONFLICT (workspace_id) DO UPDATE SET balance_units = excluded.balance_units, version = excluded.version, issuer = excluded.issuer
         WHERE excluded.version > credit_views.version`,
      ).run(wallet.workspaceId, wallet.creditUnits, wallet.version, wallet.issuer ? 1 : 0);
      if (settledReservationId !== undefined) this.closeReservation(wallet.workspaceId, settledReservationId);
    }).immediate();
  }

  async creditView(workspaceId: string): Promise<CreditView> {
    return this.db.transaction(() => this.currentView(workspaceId))();
  }

  /** The view as this connection sees it now; inside a transaction, as that transaction sees it. */
  currentView(workspaceId: string): CreditView {
    const row = this.sql('SELECT balance_units, version, issuer FROM credit_views WHERE workspace_id = ?').get(workspaceId) as CreditViewRow | undefined;
    const { reserved } = this.sql('SELECT COALESCE(SUM(credit_units), 0) AS reserved FROM reservations WHERE workspace_id = ?').get(workspaceId) as {
      reserved: number;
    };
    return { balanceUnits: row?.balance_units ?? 0, version: row?.version ?? 0, issuer: row?.issuer === 1, reservedUnits: reserved };
  }

  /** Must run inside the caller's transaction. */
  openReservation(reservation: Reservation, messageId: string): void {
    this.sql('INSERT INTO reservations (id, workspace_id, credit_units, message_id) VALUES (?, ?, ?, ?)').run(
      reservation.id,
      reservation.workspaceId,
      reservation.creditUnits,
      messageId,
    );
  }

  /** Closing an already closed (or never opened) reservation changes nothing. */
  closeReservation(workspaceId: string, id: string): void {
    this.sql('DELETE FROM reservations WHERE id = ? AND workspace_id = ?').run(id, workspaceId);
  }
}
