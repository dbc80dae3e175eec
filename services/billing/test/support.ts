// Small real collaborators for billing tests: a workspace directory that answers who issues
// credits, and helpers to read the outbox and wait for asynchronous effects.
import { fromBinary } from '@bufbuild/protobuf';
import { WalletChangedSchema, type WalletChanged } from '@voice/proto/voice/billing/v1/events';
import { Code, ConnectError } from '@connectrpc/connect';
import { notFound } from '@voice/runtime/errors';
import { walletChangedSubject, type OutboxReader } from '@voice/runtime/events';
import { newId } from '@voice/runtime/ids';
import type { IssuerLookup } from '../src/wallets/issuers.js';

/** Knows the root workspace and the workspaces added to it; counts how often it was asked. */
export class WorkspaceDirectory implements IssuerLookup {
  readonly root = newId();
  private readonly known = new Set<string>([this.root]);
  private readonly outages = new Set<string>();
  readonly asked = new Map<string, number>();

  /** The next question about this workspace fails as an unreachable identity service would. */
  failOnce(workspaceId: string): void {
    this.outages.add(workspaceId);
  }

  /** A new workspace under the root. */
  add(id = newId()): string {
    this.known.add(id);
    return id;
  }

  async isIssuer(workspaceId: string): Promise<boolean> {
    this.asked.set(workspaceId, (this.asked.get(workspaceId) ?? 0) + 1);
    if (this.outages.delete(workspaceId)) throw new ConnectError('identity is unreachable', Code.Unavailable);
    if (!this.known.has(workspaceId)) throw notFound('workspace');
    return workspaceId === this.root;
  }
}

/** The WalletChanged events still pending in an outbox, decoded, oldest first. */
export async function pendingWalletEvents(outbox: OutboxReader): Promise<WalletChanged[]> {
  const events = await outbox.pending(10_000);
  for (const event of events) expect(event.subject).toBe(walletChangedSubject);
  return events.map((event) => {
    const decoded = fromBinary(WalletChangedSchema, event.payload);
    expect(decoded.eventId).toBe(event.id);
    return decoded;
  });
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
