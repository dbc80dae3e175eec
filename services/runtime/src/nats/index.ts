// The NATS connection and the core-NATS notices (credential revocations) sent over it.
export * from './connection.js';
export * from './notifier.js';
export * from './subjects.js';
