// /invitations/{token}: the link an invitation e-mail carries. GET shows the form to choose a
// password, POST sets it. The token is the only proof, so nothing here needs a credential; an
// unknown, used or expired token is the same 404 page.
import express, { type Express, type Response } from 'express';
import { ConnectError } from '@connectrpc/connect';
import type { CallerSigner } from '@voice/runtime/caller';
import { errorDetailOf } from '@voice/runtime/errors';
import type { Logger } from '@voice/runtime/logger';
import { gatewayCallOptions } from '../auth/signed-caller.js';
import type { ServiceClients } from '../clients.js';
import { bodyParserFailure } from '../errors/body-parser.js';
import { isMalformedPathEncoding } from '../errors/path-encoding.js';
import { parseForm } from '../oauth/form.js';
import { sendPage } from '../oauth/page/html.js';
import { errorPage } from '../oauth/page/pages.js';
import { tokenPage } from '../oauth/page/token-page.js';
import { currentRealm } from '../tenants/tenant-context.js';
import { invitationPage, passwordSetPage } from './pages.js';

export interface InvitationOptions {
  clients: ServiceClients;
  signer: CallerSigner;
  /** The platform's (or the tenant's) name, for pages shown when the invitation is unknown. */
  platformName: () => string;
  /** Where a failure the page cannot explain is logged (the page itself says only "try again"). */
  logger?: Logger;
}

const tokenPattern = /^[A-Za-z0-9_-]{20,100}$/;

export function registerInvitationRoutes(app: Express, options: InvitationOptions): void {
  const invitations = options.clients.platformUsers;
  const router = express.Router();
  const notFound = (res: Response) =>
    sendPage(res, 404, errorPage(options.platformName(), 'This invitation is not valid', 'The link is unknown, already used or expired. Ask for a new invitation.'));

  const handle = tokenPage({ tokenPattern, unknown: notFound, platformName: options.platformName, what: 'invitation page', logger: options.logger });

  router.get(
    '/invitations/:token',
    handle(async (req, res, token) => {
      const { invitation } = await invitations.getInvitation({ token, realmWorkspaceId: currentRealm() }, gatewayCallOptions(res, options.signer));
      const { platformName, email, name, signIn } = invitation!;
      sendPage(res, 200, invitationPage({ platformName, email, name, signIn, action: req.originalUrl }));
    }),
  );

  router.post(
    '/invitations/:token',
    parseForm,
    handle(async (req, res, token) => {
      const realmWorkspaceId = currentRealm();
      const { invitation } = await invitations.getInvitation({ token, realmWorkspaceId }, gatewayCallOptions(res, options.signer));
      const { platformName, email, name, signIn } = invitation!;
      const view = { platformName, email, name, signIn, action: req.originalUrl };
      const password = typeof req.body?.password === 'string' ? (req.body.password as string) : '';
      // Choosing a password asks for it twice; a mismatch changes nothing and keeps the invitation open.
      if (!signIn && req.body?.password_confirmation !== password) {
        return sendPage(res, 400, invitationPage({ ...view, error: 'The two passwords do not match; type the same password twice.' }));
      }
      try {
        const accepted = await invitations.acceptInvitation({ token, password, realmWorkspaceId }, gatewayCallOptions(res, options.signer));
        sendPage(res, 200, passwordSetPage(platformName, accepted.email, signIn));
      } catch (error) {
        if (!(error instanceof ConnectError) || errorDetailOf(error).reason !== 'invalid_request') throw error;
        const issue = errorDetailOf(error).fields?.find((field) => field.field === 'password')?.issue ?? error.rawMessage;
        sendPage(res, 400, invitationPage({ ...view, error: `The password ${issue}.` }));
      }
    }),
  );
  // A token that is not even valid percent-encoding is as unknown as any other; a form the parser
  // refuses is the visitor's to fix. Both are pages, like everything else here.
  router.use(((error, _req, res, next) => {
    if (isMalformedPathEncoding(error)) return notFound(res);
    const failure = bodyParserFailure(error);
    if (!failure) return next(error);
    sendPage(res, failure.status, errorPage(options.platformName(), 'This form could not be read', 'Open the link from your invitation e-mail again and choose a password.'));
  }) as express.ErrorRequestHandler);
  app.use(router);
}
