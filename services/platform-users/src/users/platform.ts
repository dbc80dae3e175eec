// The platform a call is made for: the signed caller's workspace, which must be white-label.
// The gateway checks the feature already; this is the service's own check of the same rule.
import type { HandlerContext } from '@connectrpc/connect';
import { workspaceCallerOf } from '@voice/runtime/caller';
import { serviceError } from '@voice/runtime/errors';
import type { Workspace } from '@voice/proto/voice/identity/v1/identity';
import type { OnBehalfOf } from '../downstream/caller.js';
import type { IdentityCalls } from '../downstream/identity.js';

export interface PlatformCall {
  workspace: Workspace;
  /** For calls about the platform's own workspace. */
  on: OnBehalfOf;
  requestId: string;
}

export async function platformOf(context: HandlerContext, identity: Pick<IdentityCalls, 'getWorkspace'>): Promise<PlatformCall> {
  const caller = workspaceCallerOf(context);
  const on = { workspaceId: caller.workspaceId, requestId: caller.requestId };
  const workspace = await identity.getWorkspace(caller.workspaceId, on);
  if (!workspace.features.includes('white_label')) throw serviceError('forbidden', "this workspace's plan does not include the white_label feature");
  return { workspace, on, requestId: caller.requestId };
}
