// Whether a workspace, or a member in it, may act: the workspace and every platform above it are
// active. A platform's suspension reaches its end-users this way without changing them, so they
// come back as they were when the platform is reactivated.
import { realmOf } from '../workspaces/realms.js';
import type { MemberRecord, MemberStore, WorkspaceKeyStore, WorkspaceRecord } from '../store/store.js';

/** What deciding a standing reads: workspaces up the chain, and the member. */
export type StandingStore = Pick<WorkspaceKeyStore, 'getWorkspace'> & Pick<MemberStore, 'getMember'>;

/** Workspaces nest root → platform → customer (who may be a platform too); a longer chain is refused, not followed. */
const maxDepth = 16;

export interface Standing {
  workspace: WorkspaceRecord;
  /** The platforms above the workspace, nearest first: suspending any of them ends its credentials' answers. */
  platformIds: string[];
}

/** The workspace with the platforms above it when all of them are active; undefined when one is suspended or missing. */
export async function activeStanding(store: Pick<WorkspaceKeyStore, 'getWorkspace'>, workspaceId: string): Promise<Standing | undefined> {
  const workspace = await store.getWorkspace(workspaceId);
  if (workspace?.status !== 'active') return undefined;
  const platformIds: string[] = [];
  for (let parentId = workspace.parentWorkspaceId; parentId !== null; ) {
    if (platformIds.length >= maxDepth) return undefined;
    const parent = await store.getWorkspace(parentId);
    if (parent?.status !== 'active') return undefined;
    platformIds.push(parent.id);
    parentId = parent.parentWorkspaceId;
  }
  return { workspace, platformIds };
}

/**
 * The member when it is active in a workspace in good standing, with that standing; undefined
 * otherwise, and for a membership outside the user's realm (one written before realms).
 */
export async function activeMember(
  store: StandingStore,
  workspaceId: string,
  userId: string,
): Promise<{ member: MemberRecord; standing: Standing } | undefined> {
  const member = await store.getMember(workspaceId, userId);
  if (member?.status !== 'active') return undefined;
  const standing = await activeStanding(store, workspaceId);
  return standing && member.realmId === realmOf(standing.workspace) ? { member, standing } : undefined;
}
