// Carriers' voice webhooks: public (carriers carry no bearer credential), form-encoded, and trusted
// only after the telephony service has checked their signature against the exact public URL the
// carrier called. An answered leg's instructions and an inbound call are answered with the TwiML
// telephony returns; progress and recordings with 204.
import type { Express } from 'express';
import type { CallerSigner } from '@voice/runtime/caller';
import { VoiceWebhookKind } from '@voice/proto/voice/telephony/v1/carrier_voice';
import { gatewayCallOptions } from '../auth/signed-caller.js';
import type { ServiceClients } from '../clients.js';
import { methodNotAllowed } from '../errors/http-error.js';
import { formFields, formOnly, parseForm } from './carrier-callbacks.js';

/** Below /webhooks/carriers/{connection}: the URLs telephony gives the carrier for a leg, and a number's voice URLs. */
export const carrierVoicePaths: readonly { path: string; kind: VoiceWebhookKind }[] = [
  { path: '/webhooks/carriers/:connection/calls/:leg/twiml', kind: VoiceWebhookKind.INSTRUCTIONS },
  { path: '/webhooks/carriers/:connection/calls/:leg/status', kind: VoiceWebhookKind.STATUS },
  { path: '/webhooks/carriers/:connection/calls/:leg/recording', kind: VoiceWebhookKind.RECORDING },
  { path: '/webhooks/carriers/:connection/voice', kind: VoiceWebhookKind.INBOUND },
  { path: '/webhooks/carriers/:connection/voice/status', kind: VoiceWebhookKind.STATUS },
];

export function registerCarrierVoiceWebhooks(app: Express, deps: { clients: ServiceClients; signer: CallerSigner; publicUrl: () => string }): void {
  for (const { path, kind } of carrierVoicePaths) {
    app.post(path, formOnly, parseForm, async (req, res, next) => {
      try {
        const answer = await deps.clients.carrierVoice.handleVoiceWebhook(
          {
            connection: String(req.params.connection),
            kind,
            legId: typeof req.params.leg === 'string' ? req.params.leg : '',
            url: `${deps.publicUrl()}${req.originalUrl}`,
            params: formFields(req.body),
            signature: req.get('x-twilio-signature') ?? '',
          },
          gatewayCallOptions(res, deps.signer),
        );
        if (answer.twiml === '') res.status(204).end();
        else res.status(200).type('text/xml').send(answer.twiml);
      } catch (error) {
        next(error);
      }
    });
    app.all(path, (_req, _res, next) => next(methodNotAllowed('POST')));
  }
}
