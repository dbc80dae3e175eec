// MongoDB: connecting, and the outbox and processed-events collections.
export * from './client.js';
export * from './outbox.js';
export * from './processed-events.js';
export * from './batches.js';
export * from './transaction.js';
