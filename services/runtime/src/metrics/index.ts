// Prometheus metrics of every process: the registry, the RPC interceptor, the HTTP, event-consumer
// and process metrics, and the /metrics server.
export * from './registry.js';
export * from './config.js';
export * from './rpc.js';
export * from './http.js';
export * from './events.js';
export * from './server.js';
