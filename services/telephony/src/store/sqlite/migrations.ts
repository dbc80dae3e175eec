// The SQLite schema as numbered migrations: databases record how many ran in user_version, so
// entries are only ever appended, never edited or reordered.
import { sqliteOutboxMigration } from '@voice/runtime/store/sqlite';

export const migrations = [
  `CREATE TABLE phone_numbers (
     id TEXT PRIMARY KEY,
     workspace_id TEXT NOT NULL,
     number TEXT NOT NULL UNIQUE,
     country TEXT NOT NULL,
     source TEXT NOT NULL,
     sms_capable INTEGER NOT NULL,
     voice_capable INTEGER NOT NULL,
     sms_outbound_enabled INTEGER NOT NULL,
     carrier_connection_id TEXT,
     a2p_campaign_id TEXT,
     name TEXT NOT NULL,
     assistant_id TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE INDEX phone_numbers_by_workspace ON phone_numbers (workspace_id, created_at DESC, id DESC);
   CREATE INDEX phone_numbers_by_connection ON phone_numbers (carrier_connection_id);

   CREATE TABLE carrier_connections (
     id TEXT PRIMARY KEY,
     workspace_id TEXT NOT NULL,
     name TEXT NOT NULL,
     provider TEXT NOT NULL,
     base_url TEXT NOT NULL,
     sealed_account_sid TEXT NOT NULL,
     sealed_auth_token TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE INDEX carrier_connections_by_workspace ON carrier_connections (workspace_id, created_at DESC, id DESC);

   CREATE TABLE a2p_campaigns (
     id TEXT PRIMARY KEY,
     workspace_id TEXT NOT NULL,
     name TEXT NOT NULL,
     carrier_connection_id TEXT NOT NULL,
     use_case TEXT NOT NULL,
     description TEXT NOT NULL,
     sample_messages TEXT NOT NULL,
     status TEXT NOT NULL,
     rejection_reason TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE INDEX a2p_campaigns_by_workspace ON a2p_campaigns (workspace_id, created_at DESC, id DESC);
   CREATE INDEX a2p_campaigns_by_connection ON a2p_campaigns (carrier_connection_id);

   CREATE TABLE suppressions (
     id TEXT PRIMARY KEY,
     workspace_id TEXT NOT NULL,
     number TEXT NOT NULL,
     reason TEXT NOT NULL,
     created_at TEXT NOT NULL,
     UNIQUE (workspace_id, number)
   );
   CREATE INDEX suppressions_by_workspace ON suppressions (workspace_id, created_at DESC, id DESC);

   CREATE TABLE sms_messages (
     id TEXT PRIMARY KEY,
     workspace_id TEXT NOT NULL,
     from_number_id TEXT NOT NULL,
     from_number TEXT NOT NULL,
     to_number TEXT NOT NULL,
     body TEXT NOT NULL,
     segments INTEGER NOT NULL,
     encoding TEXT NOT NULL,
     credit_units INTEGER NOT NULL,
     status TEXT NOT NULL,
     failure_reason TEXT NOT NULL,
     carrier_connection_id TEXT,
     carrier_message_id TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   -- The platform's carrier (no connection) is its own namespace of carrier ids: '' stands for it.
   CREATE UNIQUE INDEX sms_messages_by_carrier_id ON sms_messages (IFNULL(carrier_connection_id, ''), carrier_message_id)
     WHERE carrier_message_id IS NOT NULL;
   CREATE INDEX sms_messages_by_workspace ON sms_messages (workspace_id, created_at DESC, id DESC);

   CREATE TABLE send_claims (
     workspace_id TEXT NOT NULL,
     key TEXT NOT NULL,
     fingerprint TEXT NOT NULL,
     message_id TEXT NOT NULL,
     created_at TEXT NOT NULL,
     PRIMARY KEY (workspace_id, key)
   );
   CREATE INDEX send_claims_by_message ON send_claims (message_id);

   CREATE TABLE credit_views (
     workspace_id TEXT PRIMARY KEY,
     balance_units INTEGER NOT NULL,
     version INTEGER NOT NULL,
     issuer INTEGER NOT NULL
   );

   CREATE TABLE reservations (
     id TEXT PRIMARY KEY,
     workspace_id TEXT NOT NULL,
     credit_units INTEGER NOT NULL
   );
   CREATE INDEX reservations_by_workspace ON reservations (workspace_id);`,
  sqliteOutboxMigration,
  // Recovery of interrupted sends finds a 'sending' message's reservation by the message.
  `ALTER TABLE reservations ADD COLUMN message_id TEXT;
   CREATE INDEX reservations_by_message ON reservations (message_id);
   CREATE INDEX sms_messages_sending ON sms_messages (created_at) WHERE status = 'sending';`,
  // A replay answers the first response (the message as accepted), not the message as it is now.
  `ALTER TABLE send_claims ADD COLUMN first_response TEXT;`,
  // Billing holds every send's price (under the message's id), so telephony keeps no view of the
  // wallets and no reservations of its own. A send still waiting from before has no hold: its
  // recovery's capture is charged by billing as a delivered use, its release finds nothing.
  `DROP TABLE reservations;
   DROP TABLE credit_views;`,
  // Bought numbers pay a monthly fee on each anniversary of the purchase. Numbers bought before
  // fees existed are due at once: their first renewal charges the month they are in, no earlier one.
  `ALTER TABLE phone_numbers ADD COLUMN renews_at TEXT;
   ALTER TABLE phone_numbers ADD COLUMN past_due_since TEXT;
   UPDATE phone_numbers SET renews_at = created_at WHERE source = 'marketplace';
   CREATE INDEX phone_numbers_by_renewal ON phone_numbers (renews_at) WHERE renews_at IS NOT NULL;`,
  `CREATE INDEX send_claims_by_time ON send_claims (created_at);`,
  // Call legs: one per call (an inbound leg has its call once the calls service accepted it).
  `CREATE TABLE call_legs (
     id TEXT PRIMARY KEY,
     workspace_id TEXT NOT NULL,
     call_id TEXT,
     direction TEXT NOT NULL,
     number_id TEXT,
     carrier_connection_id TEXT,
     carrier_call_id TEXT,
     from_number TEXT NOT NULL,
     to_number TEXT NOT NULL,
     max_duration_seconds INTEGER NOT NULL,
     sealed_media_parameters TEXT NOT NULL,
     status TEXT NOT NULL,
     sequence INTEGER NOT NULL,
     answered_at TEXT,
     ended_at TEXT,
     duration_seconds INTEGER NOT NULL,
     failure_reason TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE UNIQUE INDEX call_legs_by_call ON call_legs (workspace_id, call_id) WHERE call_id IS NOT NULL;`,
  // SIP trunks; a number's calls go through one trunk at most, so the routing is kept on the number.
  `CREATE TABLE sip_trunks (
     id TEXT PRIMARY KEY,
     workspace_id TEXT NOT NULL,
     name TEXT NOT NULL,
     address TEXT NOT NULL,
     transport TEXT NOT NULL,
     direction TEXT NOT NULL,
     username TEXT NOT NULL,
     sealed_password TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE INDEX sip_trunks_by_workspace ON sip_trunks (workspace_id, created_at DESC, id DESC);
   ALTER TABLE phone_numbers ADD COLUMN sip_trunk_id TEXT;
   CREATE INDEX phone_numbers_by_sip_trunk ON phone_numbers (sip_trunk_id) WHERE sip_trunk_id IS NOT NULL;`,
  // Caller IDs: one live one per number and workspace (a failed or expired one is replaced).
  `CREATE TABLE caller_ids (
     id TEXT PRIMARY KEY,
     workspace_id TEXT NOT NULL,
     phone_number TEXT NOT NULL,
     label TEXT NOT NULL,
     method TEXT NOT NULL,
     status TEXT NOT NULL,
     code_hash TEXT NOT NULL,
     code_expires_at TEXT NOT NULL,
     attempts INTEGER NOT NULL,
     verified_at TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     UNIQUE (workspace_id, phone_number)
   );
   CREATE INDEX caller_ids_by_workspace ON caller_ids (workspace_id, created_at DESC, id DESC);`,
  // A number's status callbacks and a retried inbound webhook name a leg by the carrier's call id only.
  `CREATE INDEX call_legs_by_carrier_call ON call_legs (IFNULL(carrier_connection_id, ''), carrier_call_id) WHERE carrier_call_id IS NOT NULL;`,
  // Delivery reports for a carrier id no message holds yet (a carrier can report before the
  // transaction that records its answer commits), kept until the send's acceptance takes them.
  `CREATE TABLE sms_early_reports (
     carrier_connection_id TEXT NOT NULL,
     carrier_message_id TEXT NOT NULL,
     status TEXT NOT NULL,
     failure_reason TEXT NOT NULL,
     at TEXT NOT NULL
   );
   CREATE INDEX sms_early_reports_by_carrier_id ON sms_early_reports (carrier_connection_id, carrier_message_id);
   CREATE INDEX sms_early_reports_by_time ON sms_early_reports (at);`,
];
