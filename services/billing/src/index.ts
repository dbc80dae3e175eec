export { startBillingService, type BillingOptions, type StartedBilling } from './main.js';
export { readBillingConfig, type BillingConfig } from './config.js';
export { IdentityIssuerLookup, type IssuerLookup } from './wallets/issuers.js';
export { BillingServiceImpl, type BillingDeps } from './service.js';
export { billingRoutes, billingServiceNames } from './routes.js';
