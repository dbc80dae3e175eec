// The SQLite schema as numbered migrations: databases record how many ran in user_version, so
// entries are only ever appended, never edited or reordered.
export const migrations = [
  `CREATE TABLE workspaces (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     plan TEXT NOT NULL,
     status TEXT NOT NULL,
     parent_workspace_id TEXT REFERENCES workspaces (id),
     created_at TEXT NOT NULL
   );
   -- At most one root: the root is the workspace without a parent.
   CREATE UNIQUE INDEX one_root ON workspaces ((parent_workspace_id IS NULL)) WHERE parent_workspace_id IS NULL;
   CREATE TABLE api_keys (
     id TEXT PRIMARY KEY,
     workspace_id TEXT NOT NULL REFERENCES workspaces (id),
     name TEXT NOT NULL,
     principal_id TEXT NOT NULL UNIQUE,
     key_hash TEXT NOT NULL UNIQUE,
     key_hint TEXT NOT NULL,
     scopes TEXT,
     status TEXT NOT NULL,
     created_at TEXT NOT NULL,
     last_used_at TEXT
   );
   CREATE INDEX api_keys_by_workspace ON api_keys (workspace_id, status, created_at DESC, id DESC);`,
  `CREATE TABLE users (
     id TEXT PRIMARY KEY,
     email TEXT NOT NULL UNIQUE,
     name TEXT NOT NULL,
     password_hash TEXT,
     created_at TEXT NOT NULL
   );
   CREATE TABLE members (
     workspace_id TEXT NOT NULL REFERENCES workspaces (id),
     user_id TEXT NOT NULL REFERENCES users (id),
     role TEXT NOT NULL,
     status TEXT NOT NULL,
     created_at TEXT NOT NULL,
     PRIMARY KEY (workspace_id, user_id)
   );
   CREATE INDEX members_newest_first ON members (workspace_id, created_at DESC, user_id DESC);
   CREATE INDEX members_by_user ON members (user_id);
   CREATE TABLE oauth_clients (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     redirect_uris TEXT NOT NULL,
     scopes TEXT NOT NULL,
     grant_types TEXT NOT NULL,
     token_endpoint_auth_method TEXT NOT NULL,
     secret_hash TEXT,
     client_uri TEXT,
     created_at TEXT NOT NULL
   );
   CREATE TABLE oauth_codes (
     id TEXT PRIMARY KEY,
     code_hash TEXT NOT NULL UNIQUE,
     client_id TEXT NOT NULL,
     user_id TEXT NOT NULL,
     workspace_id TEXT NOT NULL,
     redirect_uri TEXT NOT NULL,
     scopes TEXT NOT NULL,
     code_challenge TEXT NOT NULL,
     resource TEXT NOT NULL,
     status TEXT NOT NULL,
     grant_id TEXT,
     expires_at TEXT NOT NULL,
     created_at TEXT NOT NULL
   );
   CREATE INDEX oauth_codes_by_member ON oauth_codes (workspace_id, user_id, status);
   CREATE TABLE oauth_grants (
     id TEXT PRIMARY KEY,
     client_id TEXT NOT NULL,
     user_id TEXT NOT NULL,
     workspace_id TEXT NOT NULL,
     scopes TEXT NOT NULL,
     resource TEXT NOT NULL,
     status TEXT NOT NULL,
     created_at TEXT NOT NULL
   );
   CREATE INDEX oauth_grants_by_member ON oauth_grants (workspace_id, user_id, status);
   CREATE TABLE oauth_tokens (
     id TEXT PRIMARY KEY,
     grant_id TEXT NOT NULL REFERENCES oauth_grants (id),
     kind TEXT NOT NULL,
     token_hash TEXT NOT NULL UNIQUE,
     client_id TEXT NOT NULL,
     user_id TEXT NOT NULL,
     workspace_id TEXT NOT NULL,
     scopes TEXT NOT NULL,
     status TEXT NOT NULL,
     expires_at TEXT NOT NULL,
     created_at TEXT NOT NULL
   );
   CREATE INDEX oauth_tokens_by_grant ON oauth_tokens (grant_id, status);
   CREATE INDEX oauth_tokens_by_workspace ON oauth_tokens (workspace_id, status);`,
  // A platform's customers are found through the workspaces under it.
  `CREATE INDEX workspaces_by_parent ON workspaces (parent_workspace_id, created_at);`,
  // The pruning job's scans.
  `CREATE INDEX oauth_codes_by_expiry ON oauth_codes (expires_at);
   CREATE INDEX oauth_tokens_by_expiry ON oauth_tokens (expires_at);
   CREATE INDEX oauth_grants_by_time ON oauth_grants (created_at);`,
];
