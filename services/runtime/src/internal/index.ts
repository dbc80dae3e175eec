// How the gateway and services call each other: HTTP/2 sessions with retries of refused streams,
// or in process when they share one; and the lookups services make of each other.
export * from './in-process-services.js';
export * from './internal-channel.js';
export * from './internal-sessions.js';
export * from './assistant-directory.js';
