// User realms: every user belongs to one platform's realm (the root platform's or a white-label
// platform's), and is a member, signs in and holds tokens only within it. The same e-mail in two
// realms is two users, each with its own password, sessions and tokens.
import { isUuid } from '@voice/runtime/ids';
import type { OAuthClientRecord, WorkspaceKeyStore, WorkspaceRecord } from '../store/store.js';

/**
 * The realm of a workspace's members: the platform the workspace is a customer of (the root's for
 * its direct customers), or the root's for the root workspace itself.
 */
export const realmOf = (workspace: Pick<WorkspaceRecord, 'id' | 'parentWorkspaceId'>): string => workspace.parentWorkspaceId ?? workspace.id;

/**
 * The realm a request names: a platform workspace's id as sent, or the root platform's when it is
 * empty; undefined when it cannot name one (nobody is found in it).
 */
export async function realmNamed(store: Pick<WorkspaceKeyStore, 'rootWorkspace'>, realmWorkspaceId: string): Promise<string | undefined> {
  if (!realmWorkspaceId) return (await store.rootWorkspace())?.id;
  return isUuid(realmWorkspaceId) ? realmWorkspaceId : undefined;
}

/** Whether a client may serve the realm: registered clients serve the realm they registered in (the root's before realms); metadata-document clients serve any. */
export async function clientServesRealm(
  store: Pick<WorkspaceKeyStore, 'rootWorkspace'>,
  client: Pick<OAuthClientRecord, 'realmId'> & { metadataDocument: boolean },
  realmId: string | undefined,
): Promise<boolean> {
  if (realmId === undefined) return false;
  if (client.metadataDocument) return true;
  return (client.realmId ?? (await store.rootWorkspace())?.id) === realmId;
}
