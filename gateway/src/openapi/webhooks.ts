// The events the platform POSTs to webhook endpoints, as OpenAPI 3.1's top-level `webhooks`: one
// entry per event type with its body's schema and the Voice-Signature header, and the signature
// scheme with a verification sample (in the introduction and on createWebhook).
import {
  defaultWebhookTimeoutMs,
  secretRotationOverlapHours,
  signatureHeader,
  webhookEventData,
  webhookEventSchema,
  webhookRetryWindowDays,
  type SentEventType,
} from '@voice/contracts/webhooks';
import { keptConnectionIdleMs } from '@voice/runtime/egress';
import { jsonSchemaOf, type SchemaComponents } from './json-schema.js';

const verificationSample = [
  '```js',
  "import { createHmac, timingSafeEqual } from 'node:crypto';",
  '',
  '// rawBody: the request body exactly as received (a string or Buffer), before any JSON parsing.',
  'function verify(rawBody, header, secret) {',
  "  const parts = header.split(',').map((part) => part.split('='));",
  "  const t = parts.find(([key]) => key === 't')?.[1];",
  "  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();",
  "  return parts.some(([key, value]) => key === 'v1' && value.length === 64 &&",
  "    timingSafeEqual(Buffer.from(value, 'hex'), expected));",
  '}',
  '```',
].join('\n');

export const signatureDescription = [
  `**Signatures.** Every delivery carries \`${signatureHeader}: t=<unix seconds>,v1=<hex HMAC-SHA256>\`: the HMAC of`,
  `\`"<t>.<raw body>"\` keyed with the endpoint’s secret (the whole \`whsec_…\` string). While a rotated secret still signs (${secretRotationOverlapHours}`,
  'hours), there is one `v1` per secret; accept the request when any of them matches. Compare in constant time, and reject',
  'old `t` values on your side if you want replay protection (the platform refuses nothing based on the clock). A receiver',
  `answers 2xx within ${defaultWebhookTimeoutMs / 1000} seconds; anything else is retried with exponential backoff and jitter for up to ${webhookRetryWindowDays} days, after`,
  'which the endpoint is disabled and the workspace owner e-mailed. Delivery is at least once: dedupe by the event’s `id`.',
  `Deliveries keep their HTTP/1.1 connection open for the next one and close it after ${keptConnectionIdleMs / 1000} seconds idle; a delivery whose`,
  'connection your server closed as it was sent goes again on a new connection.',
  '',
  verificationSample,
].join('\n');

const componentName = (type: string) => `${type.split(/[._]/).map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('')}Event`;

/** The document's `webhooks`: each event type's POST to the endpoint. */
export function webhooksSection(components: SchemaComponents): Record<string, unknown> {
  return Object.fromEntries(
    (Object.keys(webhookEventData) as SentEventType[]).map((type) => {
      const schema = webhookEventSchema(type);
      return [
        type,
        {
          post: {
            operationId: `${componentName(type).charAt(0).toLowerCase()}${componentName(type).slice(1)}`,
            summary: `The ${type} event`,
            description: schema.description,
            tags: ['settings'],
            parameters: [
              {
                name: signatureHeader,
                in: 'header',
                required: true,
                description: 't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">, a v1 per secret that signs',
                schema: { type: 'string' },
              },
            ],
            requestBody: { required: true, content: { 'application/json': { schema: jsonSchemaOf(schema, 'output', componentName(type), components) } } },
            responses: { '200': { description: 'Any 2xx answer marks the delivery delivered; anything else is retried.' } },
            // The platform calls the receiver: the request carries the signature, no credential.
            security: [],
          },
        },
      ];
    }),
  );
}
