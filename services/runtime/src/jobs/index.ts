// Periodic jobs that run on one replica at a time, and the leases behind them.
export * from './lease-store.js';
export * from './memory-lease-store.js';
export * from './nats-lease-store.js';
export * from './periodic-jobs.js';
export * from './open.js';
