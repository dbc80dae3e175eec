// The billing service's routes over a real SQLite store and a workspace directory as the issuer
// lookup, behind either test tier (the router transport, or a real server on port 0 over HTTP/2),
// and the calls the tests make through any client of it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@connectrpc/connect';
import { BillingService, type Hold } from '@voice/proto/voice/billing/v1/billing';
import type { CallerIdentity } from '@voice/runtime/caller';
import { newId } from '@voice/runtime/ids';
import { billingRoutes } from '../src/routes.js';
import { SqliteBillingStore } from '../src/store/sqlite.js';
import { Wallets } from '../src/wallets/wallets.js';
import { WorkspaceDirectory } from './support.js';
import { routerClient, serverClient, type TierClient } from '../../runtime/test/service-tiers.js';

export { failure } from '../../runtime/test/service-tiers.js';

type Headers = { headers: Record<string, string> };

export const amount = (creditUnits: number, minuteUnits = 0) => ({ creditUnits: BigInt(creditUnits), minuteUnits: BigInt(minuteUnits) });

/** An Authorize request for a hold of `creditUnits` (and minutes) in the workspace, under a new id. */
export const holdRequest = (workspaceId: string, creditUnits: number, minuteUnits = 0) => ({
  holdId: newId(),
  workspaceId,
  amount: amount(creditUnits, minuteUnits),
  expiresInSeconds: 300,
  kind: 'sms.outbound',
  reference: `msg-${newId()}`,
  description: 'SMS to +15550100',
});

/** The hold an Authorize answered, or a failure naming the refusal. */
export function heldBy(answer: { outcome: { case: string | undefined; value?: unknown } }) {
  if (answer.outcome.case !== 'hold') throw new Error(`not authorized: ${answer.outcome.case}`);
  return answer.outcome.value as Hold;
}

/**
 * How the tests call billing through the client `clientOf` answers (it may be made after these), as
 * the gateway and the platform's services sign their calls.
 */
export function billingCalls(clientOf: () => Client<typeof BillingService>, directory: WorkspaceDirectory, as: (caller: CallerIdentity) => Headers) {
  const signed = (principal: CallerIdentity['principal'], workspaceId: string) => as({ workspaceId, principal, scopes: null });
  const internal = (workspaceId = '') => signed({ type: 'internal', id: 'telephony', name: 'telephony' }, workspaceId);
  const member = (workspaceId: string) => signed({ type: 'service_account', id: 'key-1', name: 'key' }, workspaceId);
  return {
    signed,
    internal,
    member,
    balanceOf: async (workspaceId: string) => (await clientOf().getBalance({}, member(workspaceId))).wallet!,
    fund: async (workspaceId: string, creditUnits: number, minuteUnits = 0): Promise<void> => {
      await clientOf().transfer({ fromWorkspaceId: directory.root, toWorkspaceId: workspaceId, amount: amount(creditUnits, minuteUnits), transferId: newId() }, internal());
    },
    ledgerOf: (workspaceId: string) => clientOf().listTransactions({ page: { limit: 200, offset: 0 } }, member(workspaceId)),
  };
}

export type BillingTier = Omit<TierClient<typeof BillingService>, 'internal'> &
  ReturnType<typeof billingCalls> & {
    directory: WorkspaceDirectory;
    store: SqliteBillingStore;
    /** The server's address (tier 3 only). */
    url?: string;
  };

/** Tier 2 by default; `server` puts the routes on a real server on port 0. close() ends the tier, then the store. */
export async function setup(tier: 'router' | 'server' = 'router'): Promise<BillingTier> {
  const dir = mkdtempSync(join(tmpdir(), 'billing-service-'));
  const store = new SqliteBillingStore(join(dir, 'billing.sqlite'));
  const directory = new WorkspaceDirectory();
  const now = () => new Date();
  // No relay here (main.ts runs one): the WalletChanged events wait in the store's outbox.
  const routes = billingRoutes({ store, wallets: new Wallets(store, directory, now), walletEvents: { wake: () => undefined }, now });
  const served = tier === 'server' ? await serverClient(BillingService, routes) : undefined;
  const client = served ?? routerClient(BillingService, routes);
  return {
    ...client,
    ...billingCalls(() => client.client, directory, client.as),
    directory,
    store,
    url: served?.server.url,
    close: async () => {
      await client.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
