// The telephony request schemas, for the gateway (REST validation) and later MCP and OpenAPI.
export * from './domain/schema.js';
