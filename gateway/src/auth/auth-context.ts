// What the gateway knows about the caller of a request once authenticated.
import type { Response } from 'express';
import type { GrantedScopes } from '@voice/runtime/access';

export interface WorkspaceView {
  id: string;
  name: string;
  plan: string;
  features: string[];
  white_label: boolean;
  status: string;
  created_at: string | null;
}

export interface AuthContext {
  principal: { type: 'service_account' | 'user'; id: string; name: string };
  workspace: WorkspaceView;
  scopes: GrantedScopes;
  credentialId: string;
  /** The platforms above the workspace, nearest first: a suspension of any of them ends this answer. */
  platformIds: string[];
  /** The resource an OAuth access token was issued for; empty for a service-account key (see auth/audience.ts). */
  audience: string;
}

export function authOf(res: Response): AuthContext {
  const auth = res.locals.auth as AuthContext | undefined;
  if (!auth) throw new Error('route registered without authentication');
  return auth;
}
