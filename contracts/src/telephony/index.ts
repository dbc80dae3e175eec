// The telephony API's contract: request schemas and the phone-number and SMS rules they apply.
export * from './requests.js';
export * from './phone.js';
export * from './segments.js';
