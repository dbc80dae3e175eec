// Opens wallets lazily: the first use of a workspace's wallet asks who issues credits and
// creates it; later uses find it in the store.
import type { IssuerLookup } from './issuers.js';
import type { WalletRecord, WalletStore } from '../store/store.js';

export class Wallets {
  /** First openings in progress, so concurrent first uses ask the issuer lookup once. */
  private readonly opening = new Map<string, Promise<WalletRecord>>();

  constructor(
    private readonly store: WalletStore,
    private readonly issuers: IssuerLookup,
    private readonly now: () => Date,
  ) {}

  /** The workspace's wallet, created when missing; rejects with not_found for an unknown workspace. */
  async open(workspaceId: string): Promise<WalletRecord> {
    const stored = await this.store.getWallet(workspaceId);
    if (stored) return stored;
    let opening = this.opening.get(workspaceId);
    if (!opening) {
      opening = this.create(workspaceId).finally(() => this.opening.delete(workspaceId));
      this.opening.set(workspaceId, opening);
    }
    return opening;
  }

  private async create(workspaceId: string): Promise<WalletRecord> {
    const issuer = await this.issuers.isIssuer(workspaceId);
    return this.store.openWallet(workspaceId, issuer, this.now().toISOString());
  }
}
