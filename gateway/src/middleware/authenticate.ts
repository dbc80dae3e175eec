// Bearer authentication through the identity service (answers cached, see CredentialCache).
import type { Request, RequestHandler } from 'express';
import { Code, ConnectError } from '@connectrpc/connect';
import type { CallerSigner } from '@voice/runtime/caller';
import { toIso } from '@voice/runtime/time';
import type { AuthenticateResponse } from '@voice/proto/voice/identity/v1/identity';
import { acceptsAudience } from '../auth/audience.js';
import type { AuthContext } from '../auth/auth-context.js';
import type { CredentialCache } from '../auth/credential-cache.js';
import { gatewayCallOptions } from '../auth/signed-caller.js';
import type { ServiceClients } from '../clients.js';
import { HttpError } from '../errors/http-error.js';
import type { Resources } from '../oauth/resources.js';

const bearer = /^Bearer +([\x21-\x7e]{1,512}) *$/i;

function toAuthContext(answer: AuthenticateResponse): AuthContext {
  const workspace = answer.workspace!;
  return {
    principal: { type: answer.principal?.type === 'user' ? 'user' : 'service_account', id: answer.principal?.id ?? '', name: answer.principal?.name ?? '' },
    workspace: {
      id: workspace.id,
      name: workspace.name,
      plan: workspace.plan,
      features: [...workspace.features],
      white_label: workspace.whiteLabel,
      status: workspace.status,
      created_at: toIso(workspace.createdAt),
    },
    scopes: answer.unrestricted ? null : [...answer.scopes],
    credentialId: answer.credentialId,
    platformIds: [...answer.platformWorkspaceIds],
    audience: answer.audience,
  };
}

export function authenticate(options: {
  clients: ServiceClients;
  signer: CallerSigner;
  cache: CredentialCache;
  /** Where the protected-resource metadata lives, named in WWW-Authenticate. */
  resourceMetadataUrl: string;
  /** The resource this chain protects, and this domain's resources: a token issued for another is refused. */
  served: keyof Resources;
  resources: () => Resources;
  /** The scopes a client should ask for to use what this request reaches (the challenge's `scope`); none by default. */
  challengeScope?: (req: Request) => string;
}): RequestHandler {
  return (req, res, next) => {
    // Worked out only for a refusal: an accepted request never needs it.
    const challenge = (error?: string) => {
      const scope = options.challengeScope?.(req);
      return `Bearer realm="voice", ${error ? `error="${error}", ` : ''}${scope ? `scope="${scope}", ` : ''}resource_metadata="${options.resourceMetadataUrl}"`;
    };
    const unauthorized = (message: string, error?: string) =>
      new HttpError('unauthorized', message, { headers: { 'WWW-Authenticate': challenge(error) } });
    const header = req.get('authorization');
    if (!header) return next(unauthorized('send Authorization: Bearer <credential>'));
    const credential = bearer.exec(header)?.[1];
    if (!credential) return next(unauthorized('the Authorization header must be "Bearer <credential>"', 'invalid_request'));
    options.cache
      .resolve(credential, async () => {
        const answer = await options.clients.identity.authenticate({ credential }, gatewayCallOptions(res, options.signer));
        return { auth: toAuthContext(answer), ttlSeconds: answer.cacheTtlSeconds };
      })
      .then(
        (auth) => {
          if (!acceptsAudience(auth, options.served, options.resources())) {
            return next(unauthorized('the access token was issued for another resource of this server', 'invalid_token'));
          }
          res.locals.auth = auth;
          next();
        },
        (error: unknown) => {
          if (error instanceof ConnectError && error.code === Code.Unauthenticated) {
            return next(unauthorized('the credential is missing, invalid, expired or revoked', 'invalid_token'));
          }
          next(error);
        },
      );
  };
}
