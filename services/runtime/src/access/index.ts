// Who may do what: API scopes, member roles and the plans' features.
export * from './scopes.js';
export * from './roles.js';
export * from './plans.js';
