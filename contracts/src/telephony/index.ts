// The telephony API's contract: request and answer schemas and the phone-number and SMS rules they apply.
export * from './requests.js';
export * from './responses.js';
export * from './phone.js';
export * from './segments.js';
export * from './sip-address.js';
export * from './sip-trunks.js';
export * from './caller-ids.js';
export * from './sandbox.js';
