// The SQLite schema of the platform-users store: append-only migrations, applied once each.

export const migrations = [
  `CREATE TABLE custom_domains (
     workspace_id TEXT PRIMARY KEY,
     domain TEXT NOT NULL UNIQUE,
     token TEXT NOT NULL,
     status TEXT NOT NULL,
     missing TEXT NOT NULL,
     created_at TEXT NOT NULL,
     checked_at TEXT,
     verified_at TEXT
   );`,
  `CREATE TABLE invitations (
     id TEXT PRIMARY KEY,
     token_hash TEXT NOT NULL UNIQUE,
     user_id TEXT NOT NULL,
     platform_workspace_id TEXT NOT NULL,
     email TEXT NOT NULL,
     name TEXT NOT NULL,
     expires_at TEXT NOT NULL,
     accepted_at TEXT,
     created_at TEXT NOT NULL
   );
   CREATE INDEX invitations_by_user ON invitations (user_id);
   CREATE TABLE mail_outbox (
     id TEXT PRIMARY KEY,
     recipient TEXT NOT NULL,
     subject TEXT NOT NULL,
     sealed_text TEXT,
     sealed_html TEXT,
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at TEXT,
     sent_at TEXT,
     last_error TEXT,
     created_at TEXT NOT NULL
   );
   CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE sent_at IS NULL AND next_attempt_at IS NOT NULL;`,
  // Invitations to join a workspace (issue 12), beside the registrations' own.
  `ALTER TABLE invitations ADD COLUMN workspace_id TEXT;
   ALTER TABLE invitations ADD COLUMN sign_in INTEGER NOT NULL DEFAULT 0;`,
  // Pending claims no longer block a domain: only an active domain is unique, and claims lapse.
  `CREATE TABLE custom_domains_v2 (
     workspace_id TEXT PRIMARY KEY,
     domain TEXT NOT NULL,
     token TEXT NOT NULL,
     status TEXT NOT NULL,
     missing TEXT NOT NULL,
     created_at TEXT NOT NULL,
     checked_at TEXT,
     verified_at TEXT,
     expires_at TEXT
   );
   INSERT INTO custom_domains_v2 (workspace_id, domain, token, status, missing, created_at, checked_at, verified_at, expires_at)
     SELECT workspace_id, domain, token, status, missing, created_at, checked_at, verified_at, NULL FROM custom_domains;
   DROP TABLE custom_domains;
   ALTER TABLE custom_domains_v2 RENAME TO custom_domains;
   CREATE UNIQUE INDEX custom_domains_active ON custom_domains (domain) WHERE status = 'active';
   CREATE INDEX custom_domains_by_domain ON custom_domains (domain);`,
  // The pruning job's scan of finished mail.
  `CREATE INDEX mail_outbox_finished ON mail_outbox (created_at) WHERE next_attempt_at IS NULL;`,
  // Workspaces' own e-mail (issue 16): the From of a verified sender, kept as the workspace's history;
  // the senders and their one pending confirmation.
  `ALTER TABLE mail_outbox ADD COLUMN from_address TEXT;
   ALTER TABLE mail_outbox ADD COLUMN workspace_id TEXT;
   ALTER TABLE mail_outbox ADD COLUMN sender_id TEXT;
   ALTER TABLE mail_outbox ADD COLUMN call_id TEXT;
   CREATE INDEX mail_outbox_by_workspace ON mail_outbox (workspace_id, created_at DESC, id DESC) WHERE workspace_id IS NOT NULL;
   CREATE TABLE email_senders (
     id TEXT PRIMARY KEY,
     workspace_id TEXT NOT NULL,
     address TEXT NOT NULL,
     name TEXT NOT NULL,
     status TEXT NOT NULL,
     confirmation_hash TEXT,
     created_at TEXT NOT NULL,
     verified_at TEXT,
     UNIQUE (workspace_id, address)
   );
   CREATE INDEX email_senders_oldest_first ON email_senders (workspace_id, created_at, id);`,
];
