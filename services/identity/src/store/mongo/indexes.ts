// The MongoDB store's indexes, which every connect creates where they are missing.
import type { Collections } from './documents.js';

export async function createIndexes(collections: Collections): Promise<void> {
  const { workspaces, keys, users, members, codes, grants, tokens } = collections;
  await workspaces.createIndex({ root: 1 }, { unique: true, sparse: true, name: 'one_root' });
  await workspaces.createIndex({ parent_workspace_id: 1, created_at: 1 }, { name: 'workspaces_by_parent' });
  await keys.createIndex({ key_hash: 1 }, { unique: true, name: 'unique_key_hash' });
  await keys.createIndex({ principal_id: 1 }, { unique: true, name: 'unique_principal' });
  await keys.createIndex({ workspace_id: 1, status: 1, created_at: -1, _id: -1 }, { name: 'keys_by_workspace' });
  await users.createIndex({ realm_id: 1, email: 1 }, { unique: true, name: 'unique_email_in_realm' });
  await members.createIndex({ workspace_id: 1, user_id: 1 }, { unique: true, name: 'unique_member' });
  await members.createIndex({ workspace_id: 1, created_at: -1, user_id: -1 }, { name: 'members_newest_first' });
  await members.createIndex({ user_id: 1 }, { name: 'members_by_user' });
  await codes.createIndex({ code_hash: 1 }, { unique: true, name: 'unique_code_hash' });
  await codes.createIndex({ workspace_id: 1, user_id: 1, status: 1 }, { name: 'codes_by_member' });
  await grants.createIndex({ workspace_id: 1, user_id: 1, status: 1 }, { name: 'grants_by_member' });
  await tokens.createIndex({ token_hash: 1 }, { unique: true, name: 'unique_token_hash' });
  await tokens.createIndex({ grant_id: 1, status: 1 }, { name: 'tokens_by_grant' });
  await tokens.createIndex({ workspace_id: 1, user_id: 1, status: 1 }, { name: 'tokens_by_member' });
}
