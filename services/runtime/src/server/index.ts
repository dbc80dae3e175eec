// A service's Connect server over HTTP/2: caller checks, connection age, gRPC health.
export * from './connect-server.js';
export * from './connect-server-age.js';
export * from './health.js';
export * from './start-service.js';
export * from './service-server-options.js';
export * from './listen.js';
