export { startBillingService } from './main.js';
