// A platform's user as identity knows it (a customer): loading one, and the rules that read its
// workspaces.
import { Code, ConnectError } from '@connectrpc/connect';
import { notFound, serviceError } from '@voice/runtime/errors';
import { isUuid } from '@voice/runtime/ids';
import type { Customer, Workspace } from '@voice/proto/voice/identity/v1/identity';
import type { IdentityCalls } from '../downstream/identity.js';
import type { PlatformCall } from './platform.js';

/** The platform's customer with this id; not_found for anyone else, malformed ids included. */
export async function customerOf(identity: Pick<IdentityCalls, 'getCustomer'>, platform: PlatformCall, userId: string): Promise<Customer> {
  if (!isUuid(userId)) throw notFound('user');
  try {
    return await identity.getCustomer(platform.workspace.id, userId, platform.on);
  } catch (error) {
    if (error instanceof ConnectError && error.code === Code.NotFound) throw notFound('user');
    throw error;
  }
}

/** The customer's workspaces under the platform, oldest first (as identity orders them). */
export const workspacesOf = (customer: Customer): Workspace[] =>
  customer.workspaces.flatMap(({ workspace }) => (workspace ? [workspace] : []));

/** The workspace registration created: transfers go to and from its wallet. */
export function firstWorkspace(customer: Customer): Workspace {
  const [first] = workspacesOf(customer);
  if (!first) throw notFound('user');
  return first;
}

/** Where the user's tokens are issued: the oldest workspace still active. */
export function signInWorkspace(customer: Customer): Workspace {
  const active = workspacesOf(customer).find((workspace) => workspace.status === 'active');
  if (!active) throw serviceError('conflict', 'the user is suspended');
  return active;
}

/** Suspended when every workspace of the user under the platform is. */
export function userStatus(customer: Customer): 'active' | 'suspended' {
  const workspaces = workspacesOf(customer);
  return workspaces.length > 0 && workspaces.every((workspace) => workspace.status === 'suspended') ? 'suspended' : 'active';
}
