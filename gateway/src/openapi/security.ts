// The two ways to authenticate (API.md 2, SPEC.md 5) as OpenAPI security schemes, with every
// canonical scope described.
import { canonicalScopes } from '@voice/runtime/access';
import { accessTokenSeconds } from '@voice/runtime/oauth';
import { oauthPaths } from '../oauth/metadata.js';

/** What each scope area covers; `:write` also creates, changes and deletes, and implies `:read`. */
const areas: Record<string, string> = {
  assistants: 'assistants and their tools',
  calls: 'calls, their events and recordings',
  campaigns: 'outbound calling campaigns',
  automations: 'automations (legacy `calls:*` scopes are also accepted)',
  dashboards: 'custom dashboards (legacy `calls:*` scopes are also accepted)',
  leads: 'leads and the SMS suppression list',
  segments: 'lead segments',
  loop: 'the conversation review loop',
  phone_numbers: 'phone numbers, carrier connections, A2P campaigns and SMS',
  sip_trunks: 'SIP trunks',
  knowledge: 'knowledge bases and their documents',
  voices: 'the voice catalogue',
  billing: 'the balance, the ledger and usage',
  settings: 'workspace settings: API keys, members and the custom domain',
  platform: 'the end-users of a white-label platform, their tokens and credits',
};

export function scopeDescription(scope: string): string {
  const [area = scope, access] = scope.split(':');
  const what = areas[area] ?? area.replace(/_/g, ' ');
  return access === 'write' ? `Read and change ${what} (implies \`${area}:read\`)` : `Read ${what}`;
}

export const securitySchemes = (publicUrl: string) => ({
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'svc_… API key or svc_at_… access token',
    description:
      'Send `Authorization: Bearer <credential>`. Two credentials are accepted: a service-account API key (`svc_` prefix; ' +
      'for server-to-server use, never in client-side code; created with `POST /api-keys`, shown once) and an OAuth 2.0 ' +
      'access token (`svc_at_` prefix; see `oauth2`). A key without scope restrictions may call every operation.',
  },
  oauth2: {
    type: 'oauth2',
    description:
      'Authorization code flow with PKCE; `code_challenge_method=S256` is required. Access tokens (`svc_at_` prefix) live ' +
      `${accessTokenSeconds / 60} minutes; refresh tokens rotate on every use. Clients register at \`/oauth/register\` (RFC 7591) or identify ` +
      'themselves with a Client ID Metadata Document URL. Discovery: `/.well-known/oauth-authorization-server`.',
    flows: {
      authorizationCode: {
        authorizationUrl: `${publicUrl}${oauthPaths.authorize}`,
        tokenUrl: `${publicUrl}${oauthPaths.token}`,
        refreshUrl: `${publicUrl}${oauthPaths.token}`,
        scopes: Object.fromEntries(canonicalScopes.map((scope) => [scope, scopeDescription(scope)])),
      },
    },
  },
});
