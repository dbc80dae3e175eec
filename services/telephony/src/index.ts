export { startTelephonyService } from './main.js';
