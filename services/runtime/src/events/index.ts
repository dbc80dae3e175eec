// Durable events between services: the stream port and its adapters, the transactional outbox's
// port and its relay (the outbox and processed-events tables are in store/sqlite and store/mongo).
export * from './event-stream.js';
export * from './subject-match.js';
export * from './jetstream.js';
export * from './in-process.js';
export * from './open.js';
export * from './namespaced.js';
export * from './streams.js';
export * from './outbox.js';
export * from './relay.js';
export * from './bounded-concurrency.js';
export * from './work-queue.js';
