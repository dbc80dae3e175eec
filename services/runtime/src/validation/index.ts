// Validating requests: zod helpers, field issues, pagination and bounded JSON.
export * from './validate.js';
export * from './empty-body.js';
export * from './page-query.js';
export * from './pagination.js';
export * from './json-depth.js';
