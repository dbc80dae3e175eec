// PlatformUsersStore on MongoDB: unique indexes keep an active domain with one workspace and a
// token hash with one invitation; an invitation and its e-mail are written in one transaction.
import { connectMongo } from '@voice/runtime/store/mongo';
import type { MongoContext } from './mongo/context.js';
import { mongoCustomDomainStore } from './mongo/custom-domains.js';
import { mongoEmailSenderStore } from './mongo/email-senders.js';
import { ensureIndexes } from './mongo/documents.js';
import { mongoInvitationStore } from './mongo/invitations.js';
import { mongoMailOutboxStore } from './mongo/mail-outbox.js';
import type { PlatformUsersStore } from './store.js';

/** Connects to the service's database and creates the indexes that are missing. */
export async function connectMongoPlatformUsersStore(uri: string, databaseName: string): Promise<PlatformUsersStore> {
  const handle = await connectMongo(uri, databaseName);
  try {
    const context: MongoContext = {
      handle,
      collections: {
        domains: handle.db.collection('custom_domains'),
        invitations: handle.db.collection('invitations'),
        mail: handle.db.collection('mail_outbox'),
        senders: handle.db.collection('email_senders'),
      },
    };
    await ensureIndexes(context.collections);
    return {
      ...mongoCustomDomainStore(context),
      ...mongoInvitationStore(context),
      ...mongoMailOutboxStore(context),
      ...mongoEmailSenderStore(context),
      close: () => handle.close(),
    };
  } catch (error) {
    await handle.close();
    throw error;
  }
}
