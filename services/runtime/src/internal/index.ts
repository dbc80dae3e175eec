// How the gateway and services call each other: HTTP/2 sessions with retries of refused streams,
// or in process when they share one.
export * from './in-process-services.js';
export * from './internal-channel.js';
export * from './internal-sessions.js';
