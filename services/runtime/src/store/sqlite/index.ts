// SQLite: opening a database, and the outbox and processed-events tables on it.
export * from './database.js';
export * from './outbox.js';
export * from './processed-events.js';
