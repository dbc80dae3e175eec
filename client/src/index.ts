// The typed client of the voice platform's REST API.
import type { components } from './generated/openapi.js';

export { createVoiceClient, type VoiceClient, type VoiceClientOptions, type Credential } from './client.js';
export { VoiceApiError, orThrow, isErrorEnvelope, type ErrorEnvelope, type ErrorCode, type ErrorDetail, type CallResult } from './errors.js';
export { paginate, type ListPath, type ListItem, type PaginateOptions } from './pagination.js';
export {
  verifyWebhookSignature,
  WebhookSignatureError,
  signatureHeaderName,
  type VerifyWebhookOptions,
  type WebhookSignatureFailure,
} from './webhook-signature.js';
export type { paths, components, operations } from './generated/openapi.js';

/** The document's named schemas: `Schemas['Tool']`, `Schemas['Assistant']`, … */
export type Schemas = components['schemas'];
