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
  // User realms (issue 12): an e-mail is unique within a realm, not globally. Each existing user
  // joins the realm of its oldest membership (the one that created it), the root's without any;
  // memberships in other realms stay but never authenticate (see docs/operations.md). The users
  // table is rebuilt for its new unique key; members, the only table referencing it, with it.
  `CREATE TABLE users_with_realms (
     id TEXT PRIMARY KEY,
     realm_id TEXT NOT NULL,
     email TEXT NOT NULL,
     name TEXT NOT NULL,
     password_hash TEXT,
     created_at TEXT NOT NULL,
     UNIQUE (realm_id, email)
   );
   INSERT INTO users_with_realms (id, realm_id, email, name, password_hash, created_at)
     SELECT u.id,
       COALESCE(
         (SELECT COALESCE(w.parent_workspace_id, w.id) FROM members m JOIN workspaces w ON w.id = m.workspace_id
           WHERE m.user_id = u.id ORDER BY m.created_at, w.id LIMIT 1),
         (SELECT id FROM workspaces WHERE parent_workspace_id IS NULL),
         ''),
       u.email, u.name, u.password_hash, u.created_at
     FROM users u;
   CREATE TEMP TABLE members_before_realms AS SELECT * FROM members;
   DROP TABLE members;
   DROP TABLE users;
   ALTER TABLE users_with_realms RENAME TO users;
   CREATE TABLE members (
     workspace_id TEXT NOT NULL REFERENCES workspaces (id),
     user_id TEXT NOT NULL REFERENCES users (id),
     role TEXT NOT NULL,
     status TEXT NOT NULL,
     created_at TEXT NOT NULL,
     PRIMARY KEY (workspace_id, user_id)
   );
   INSERT INTO members (workspace_id, user_id, role, status, created_at)
     SELECT workspace_id, user_id, role, status, created_at FROM members_before_realms;
   DROP TABLE members_before_realms;
   CREATE INDEX members_newest_first ON members (workspace_id, created_at DESC, user_id DESC);
   CREATE INDEX members_by_user ON members (user_id);
   ALTER TABLE oauth_clients ADD COLUMN realm_id TEXT;`,
  // An invited member's name as its inviter gave it (issue 12): shown until it accepts, so an
  // inviter never learns how an existing user is named.
  `ALTER TABLE members ADD COLUMN invited_name TEXT;`,
  // The pruning job's scans.
  `CREATE INDEX oauth_codes_by_expiry ON oauth_codes (expires_at);
   CREATE INDEX oauth_tokens_by_expiry ON oauth_tokens (expires_at);
   CREATE INDEX oauth_grants_by_time ON oauth_grants (created_at);`,
];
