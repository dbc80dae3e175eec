// Fixed-window counters and concurrency slots shared by a service's replicas (NATS KV) or kept in one process's memory.
export * from './window-counter.js';
export * from './window-limit.js';
export * from './nats-window-counter.js';
export * from './fallback-window-counter.js';
export * from './open-window-counter.js';
export * from './concurrency-slots.js';
export * from './nats-slot-table.js';
export * from './open-concurrency-slots.js';
