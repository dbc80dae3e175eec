// Durable events between services: the stream port and its adapters, the transactional outbox
// and its relay, and the processed-events tables that make consumers idempotent.
export * from './event-stream.js';
export * from './subject-match.js';
export * from './jetstream.js';
export * from './in-process.js';
export * from './open.js';
export * from './namespaced.js';
export * from './streams.js';
export * from './outbox.js';
export * from './sqlite-outbox.js';
export * from './mongo-outbox.js';
export * from './relay.js';
export * from './sqlite-processed-events.js';
export * from './mongo-processed-events.js';
