// Carrier status callbacks: public (carriers carry no bearer credential), form-encoded, and
// trusted only after the telephony service has checked their signature with the connection's
// credentials against the exact public URL the carrier called.
import express, { type Express } from 'express';
import type { CallerSigner } from '@voice/runtime/caller';
import { gatewayCallOptions } from '../auth/signed-caller.js';
import type { ServiceClients } from '../clients.js';
import { HttpError, methodNotAllowed } from '../errors/http-error.js';

export const carrierCallbackPath = '/webhooks/carriers/:connection';

export const parseForm = express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 100, type: () => true });

/** Carriers post forms; anything else is refused before it is read. */
export const formOnly: express.RequestHandler = (req, _res, next) =>
  req.is('application/x-www-form-urlencoded') ? next() : next(new HttpError('invalid_request', 'callbacks must be application/x-www-form-urlencoded'));

/** Form fields as single strings; a repeated field makes the body ambiguous to sign. */
export function formFields(body: unknown): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries((body ?? {}) as Record<string, unknown>)) {
    if (typeof value !== 'string') throw new HttpError('invalid_request', `form field ${name} must appear once`);
    fields[name] = value;
  }
  return fields;
}

export function registerCarrierCallbacks(
  app: Express,
  deps: { clients: ServiceClients; signer: CallerSigner; publicUrl: () => string },
): void {
  app.post(
    carrierCallbackPath,
    formOnly,
    parseForm,
    async (req, res, next) => {
      try {
        await deps.clients.telephony.handleCarrierCallback(
          {
            connection: String(req.params.connection),
            url: `${deps.publicUrl()}${req.originalUrl}`,
            params: formFields(req.body),
            signature: req.get('x-twilio-signature') ?? '',
          },
          gatewayCallOptions(res, deps.signer),
        );
        res.status(204).end();
      } catch (error) {
        next(error);
      }
    },
  );
  app.all(carrierCallbackPath, (_req, _res, next) => next(methodNotAllowed('POST')));
}
