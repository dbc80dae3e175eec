// GET and POST /oauth/authorize: the login and consent page. Every request is checked by
// identity (client, redirect URI, PKCE S256, scopes) on both steps; errors go back to the
// client only when its redirect URI is trusted, otherwise they are shown on the page.
import type { Request, Response, Router } from 'express';
import { ConnectError } from '@connectrpc/connect';
import { errorDetailOf } from '@voice/runtime/errors';
import type { OAuthClient } from '@voice/proto/voice/identity/v1/identity';
import type { CsrfGuard } from './csrf.js';
import type { OAuthDeps } from './deps.js';
import { parseForm } from './form.js';
import type { LoginTickets } from './login-ticket.js';
import { missingParameters, OAuthError, oauthErrorOf } from './oauth-error.js';
import { consentPage, errorPage, workspaceChoicePage, type ClientView } from './page/pages.js';
import { sendPage } from './page/html.js';
import { canonicalResource, unknownResource } from './resources.js';
import { currentRealm } from '../tenants/tenant-context.js';

const requestFields = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'resource'] as const;

type AuthorizationRequest = Partial<Record<(typeof requestFields)[number], string>>;

/** A failure that may go to the client's redirect URI (trusted) or only onto the page. */
class AuthorizationFailure extends Error {
  constructor(readonly oauth: OAuthError, readonly trusted: boolean) {
    super(oauth.description);
  }
}

export interface AuthorizeOptions {
  csrf: CsrfGuard;
  tickets: LoginTickets;
  platformName: () => string;
}

/** The authorization parameters, each at most once; repeated ones cannot be trusted at all. */
function readRequest(source: Record<string, unknown>): AuthorizationRequest {
  const request: AuthorizationRequest = {};
  for (const field of requestFields) {
    const value = source[field];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw new AuthorizationFailure(new OAuthError('invalid_request', `${field} is sent more than once`), false);
    request[field] = value;
  }
  return request;
}

/** Identity reports on a failed check whether redirect_uri was verified before the failure. */
const trustedRedirect = (error: ConnectError): boolean =>
  errorDetailOf(error).fields.some((f) => f.field === 'redirect_uri_trusted' && f.issue === 'true');

export function registerAuthorizeRoutes(router: Router, deps: OAuthDeps, options: AuthorizeOptions): void {
  const check = async (request: AuthorizationRequest, res: Response): Promise<{ client: OAuthClient; scopes: string[] }> => {
    const missing = missingParameters({ client_id: request.client_id, redirect_uri: request.redirect_uri });
    if (missing) throw new AuthorizationFailure(missing, false);
    try {
      const answer = await deps.clients.identity.checkAuthorizationRequest(
        {
          clientId: request.client_id,
          redirectUri: request.redirect_uri,
          responseType: request.response_type ?? '',
          codeChallenge: request.code_challenge ?? '',
          codeChallengeMethod: request.code_challenge_method ?? '',
          scope: request.scope ?? '',
          realmWorkspaceId: currentRealm(),
        },
        deps.internalCall(res),
      );
      if (request.resource !== undefined && !canonicalResource(deps.resources(), request.resource)) {
        throw new AuthorizationFailure(unknownResource(deps.resources()), true);
      }
      return { client: answer.client!, scopes: answer.scopes };
    } catch (error) {
      if (error instanceof AuthorizationFailure) throw error;
      const oauth = oauthErrorOf(error);
      if (!oauth) throw error;
      throw new AuthorizationFailure(oauth, error instanceof ConnectError && trustedRedirect(error));
    }
  };

  const redirectBack = (res: Response, request: AuthorizationRequest, params: Record<string, string>) => {
    const target = new URL(request.redirect_uri!);
    for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
    if (request.state !== undefined) target.searchParams.set('state', request.state);
    target.searchParams.set('iss', deps.publicUrl());
    res.redirect(302, target.toString());
  };

  const fail = (res: Response, request: AuthorizationRequest, failure: AuthorizationFailure) => {
    if (failure.trusted) return redirectBack(res, request, { error: failure.oauth.error, error_description: failure.oauth.description });
    const status = failure.oauth.status === 429 ? 429 : 400;
    sendPage(res, status, errorPage(options.platformName(), 'This sign-in link is not valid', failure.oauth.description));
  };

  /** What the page may say of the client: facts from the verified request, and the client's claims. */
  const clientView = (request: AuthorizationRequest, client: OAuthClient): ClientView => {
    // Identity verified redirect_uri against the client's registration, so it parses.
    const redirect = new URL(request.redirect_uri!);
    return {
      redirectHost: redirect.host,
      redirectLoopback: redirect.protocol === 'http:',
      documentHost: client.metadataDocument ? new URL(client.clientId).host : undefined,
      claimedName: client.clientName,
      claimedUri: client.clientUri,
    };
  };

  const hiddenRequest = (request: AuthorizationRequest): Record<string, string> =>
    Object.fromEntries(Object.entries(request).filter((entry): entry is [string, string] => entry[1] !== undefined));

  const showConsent = (res: Response, status: number, request: AuthorizationRequest, client: OAuthClient, scopes: string[], error?: string, email?: string) =>
    sendPage(
      res,
      status,
      consentPage({
        platformName: options.platformName(),
        client: clientView(request, client),
        scopes,
        request: { ...hiddenRequest(request), scope: scopes.join(' ') },
        csrfToken: options.csrf.issue(res),
        error,
        email,
      }),
    );

  const handle = (step: (req: Request, res: Response, request: AuthorizationRequest) => Promise<void>) => (req: Request, res: Response, next: (e?: unknown) => void) => {
    let request: AuthorizationRequest = {};
    Promise.resolve()
      .then(() => {
        if (req.method === 'POST' && !req.is('application/x-www-form-urlencoded')) {
          // Only the page's own form posts here; anything else has no fields to read (and no body parsed).
          throw new AuthorizationFailure(new OAuthError('invalid_request', 'the form must be application/x-www-form-urlencoded'), false);
        }
        request = readRequest((req.method === 'GET' ? req.query : req.body) as Record<string, unknown>);
        return step(req, res, request);
      })
      .catch((error: unknown) => (error instanceof AuthorizationFailure ? fail(res, request, error) : next(error)));
  };

  router.get(deps.paths.authorize, deps.limits.authorize, handle(async (_req, res, request) => {
    const { client, scopes } = await check(request, res);
    showConsent(res, 200, request, client, scopes);
  }));

  router.post(deps.paths.authorize, deps.limits.authorize, parseForm, handle(async (req, res, request) => {
    const form = req.body as Record<string, unknown>;
    const field = (name: string) => (typeof form[name] === 'string' ? (form[name] as string) : undefined);
    if (!options.csrf.verify(req, field('csrf_token'))) {
      // The cookie is gone after 30 minutes, or was never kept (cookies blocked): the page cannot tell which.
      return sendPage(
        res,
        403,
        errorPage(
          options.platformName(),
          'This form could not be verified',
          'It was opened more than 30 minutes ago, or the browser did not keep its cookie. Go back to the application and start signing in again.',
        ),
      );
    }
    const { client, scopes } = await check(request, res);
    if (field('action') !== 'approve') return redirectBack(res, request, { error: 'access_denied', error_description: 'the user denied the request' });

    const ticket = field('login_ticket');
    let userId: string | undefined;
    let memberships: { workspaceId: string; workspaceName: string; role: string }[] = [];
    if (ticket) {
      userId = options.tickets.verify(ticket, client.clientId);
      if (!userId) return showConsent(res, 401, request, client, scopes, 'Your sign-in expired; sign in again.');
    }
    const email = field('email') ?? '';
    if (!userId) {
      try {
        const user = await deps.clients.identity.verifyPassword(
          { email, password: field('password') ?? '', realmWorkspaceId: currentRealm() },
          deps.internalCall(res),
        );
        userId = user.userId;
        memberships = user.memberships;
      } catch (error) {
        if (error instanceof ConnectError && errorDetailOf(error).reason === 'unauthorized') {
          return showConsent(res, 401, request, client, scopes, 'The e-mail or password is wrong.', email);
        }
        throw error;
      }
    }
    const workspaceId = field('workspace_id') ?? (memberships.length === 1 ? memberships[0]!.workspaceId : undefined);
    if (!workspaceId) {
      if (memberships.length === 0) return showConsent(res, 403, request, client, scopes, 'This account is not an active member of any workspace.', email);
      return sendPage(
        res,
        200,
        workspaceChoicePage({
          platformName: options.platformName(),
          client: clientView(request, client),
          scopes,
          request: { ...hiddenRequest(request), scope: scopes.join(' ') },
          csrfToken: options.csrf.issue(res),
          loginTicket: options.tickets.issue(userId, client.clientId),
          workspaces: memberships.map((m) => ({ id: m.workspaceId, name: m.workspaceName, role: m.role })),
        }),
      );
    }
    try {
      const { code } = await deps.clients.identity.issueAuthorizationCode(
        {
          clientId: client.clientId,
          userId,
          workspaceId,
          redirectUri: request.redirect_uri!,
          scopes,
          codeChallenge: request.code_challenge ?? '',
          // A token requested without a resource is bound to the REST API.
          resource: request.resource === undefined ? deps.resources().api : canonicalResource(deps.resources(), request.resource)!,
          realmWorkspaceId: currentRealm(),
        },
        deps.internalCall(res),
      );
      redirectBack(res, request, { code });
    } catch (error) {
      const oauth = oauthErrorOf(error);
      if (!oauth) throw error;
      throw new AuthorizationFailure(oauth, true);
    }
  }));
}
