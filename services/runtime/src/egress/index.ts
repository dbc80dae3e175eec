// Outbound HTTP that refuses private and loopback addresses.
export * from './egress.js';
export * from './http-client.js';
