// Reading the environment: typed readers, and the configuration every service shares.
export * from './env.js';
export * from './service-config.js';
export * from './retention.js';
export * from './services.js';
