// /email-senders/confirm/{token}: the link an e-mail sender's confirmation e-mail carries. GET shows
// what it confirms, POST confirms; the token is the only proof, checked by the platform-users service
// (signature, expiry, single use). An unknown, tampered or used link is one 404 page; an expired one
// is 410 and says to ask for a new link.
import express, { type Express, type Response } from 'express';
import type { CallerSigner } from '@voice/runtime/caller';
import type { Logger } from '@voice/runtime/logger';
import { ConfirmationState } from '@voice/proto/voice/platform/v1/email';
import { gatewayCallOptions } from '../auth/signed-caller.js';
import type { ServiceClients } from '../clients.js';
import { isMalformedPathEncoding } from '../errors/path-encoding.js';
import { sendPage } from '../oauth/page/html.js';
import { errorPage } from '../oauth/page/pages.js';
import { tokenPage } from '../oauth/page/token-page.js';
import { confirmSenderPage, senderConfirmedPage } from './pages.js';

export interface SenderConfirmationOptions {
  clients: ServiceClients;
  signer: CallerSigner;
  platformName: () => string;
  logger?: Logger;
}

export const senderConfirmationPath = '/email-senders/confirm';
const tokenPattern = /^[A-Za-z0-9_.-]{20,300}$/;

export function registerSenderConfirmationRoutes(app: Express, options: SenderConfirmationOptions): void {
  const senders = options.clients.emailSenders;
  const router = express.Router();
  const invalid = (res: Response) =>
    sendPage(res, 404, errorPage(options.platformName(), 'This link is not valid', 'The link is unknown, already used or replaced by a newer one.'));
  const expired = (res: Response) =>
    sendPage(res, 410, errorPage(options.platformName(), 'This link has expired', 'Delete the sender and add it again to receive a new link.'));

  const handle = tokenPage({ tokenPattern, unknown: invalid, platformName: options.platformName, what: 'sender confirmation page', logger: options.logger });

  router.get(
    `${senderConfirmationPath}/:token`,
    handle(async (req, res, token) => {
      const answer = await senders.getEmailSenderConfirmation({ token }, gatewayCallOptions(res, options.signer));
      if (answer.state === ConfirmationState.EXPIRED) return expired(res);
      if (answer.state !== ConfirmationState.VALID) return invalid(res);
      sendPage(res, 200, confirmSenderPage(options.platformName(), answer.address, req.originalUrl));
    }),
  );

  router.post(
    `${senderConfirmationPath}/:token`,
    handle(async (_req, res, token) => {
      const answer = await senders.confirmEmailSender({ token }, gatewayCallOptions(res, options.signer));
      if (answer.state === ConfirmationState.EXPIRED) return expired(res);
      if (answer.state !== ConfirmationState.CONFIRMED) return invalid(res);
      sendPage(res, 200, senderConfirmedPage(options.platformName(), answer.address));
    }),
  );
  router.use(((error, _req, res, next) => (isMalformedPathEncoding(error) ? invalid(res) : next(error))) as express.ErrorRequestHandler);
  app.use(router);
}
