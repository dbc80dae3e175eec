// Outbound HTTP that only reaches globally reachable addresses, and why a request failed.
export * from './egress.js';
export * from './http-client.js';
export * from './network-failure.js';
