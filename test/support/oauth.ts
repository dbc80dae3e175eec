// Drives the authorization endpoint the way a browser does: loads the page, keeps its cookie,
// submits the real form with the user's answers, and follows nothing past the redirect.
import { createHash, randomBytes } from 'node:crypto';

export interface FormPage {
  status: number;
  html: string;
  cookie: string;
  /** The form's fields as the page rendered them (hidden ones included). */
  fields: Record<string, string>;
}

const decodeHtml = (value: string): string =>
  value.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

function formFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[decodeHtml(match[1]!)] = decodeHtml(match[2]!);
  return fields;
}

/** The authorization endpoint's address with `params` in its query; undefined ones are left out. */
export function authorizeUrlOf(baseUrl: string, params: Record<string, string | undefined>): string {
  const url = new URL(`${baseUrl}/oauth/authorize`);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}

/** `headers` go with the request (e.g. a trusted proxy's X-Forwarded-Host naming a tenant's domain). */
export async function loadAuthorizePage(url: string, headers: Record<string, string> = {}): Promise<FormPage> {
  const response = await fetch(url, { redirect: 'manual', headers });
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const html = await response.text();
  return { status: response.status, html, cookie, fields: formFields(html) };
}

export interface FormAnswer {
  status: number;
  location: string | null;
  html: string;
  cookie: string;
  fields: Record<string, string>;
}

/** Submits the page's form with extra fields; `cookie` may be overridden to test CSRF. */
export async function submitAuthorizeForm(
  baseUrl: string,
  page: { cookie: string; fields: Record<string, string> },
  answers: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<FormAnswer> {
  const response = await fetch(`${baseUrl}/oauth/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded', cookie: page.cookie },
    body: new URLSearchParams({ ...page.fields, ...answers }).toString(),
  });
  const html = await response.text();
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] || page.cookie;
  return { status: response.status, location: response.headers.get('location'), html, cookie, fields: formFields(html) };
}

/** Signs in and approves; returns the redirect the client receives. */
export async function approveThroughForm(baseUrl: string, authorizeUrl: string, credentials: { email: string; password: string; workspaceId?: string }): Promise<URL> {
  const page = await loadAuthorizePage(authorizeUrl);
  if (page.status !== 200) throw new Error(`authorize page answered ${page.status}: ${page.html}`);
  let answer = await submitAuthorizeForm(baseUrl, page, { email: credentials.email, password: credentials.password, action: 'approve' });
  if (answer.status === 200 && answer.fields.login_ticket) {
    answer = await submitAuthorizeForm(baseUrl, answer, { action: 'approve', workspace_id: credentials.workspaceId ?? '' });
  }
  if (answer.status !== 302 || !answer.location) throw new Error(`authorization did not redirect (${answer.status}): ${answer.html}`);
  return new URL(answer.location);
}

/** The refresh grant at the token endpoint, as a public client sends it; the raw answer. */
export const refreshTokens = (baseUrl: string, tokens: { refresh_token: string; client_id: string }): Promise<Response> =>
  fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: tokens.client_id }).toString(),
  });

/** A user's tokens through the whole flow (registration, form, PKCE, exchange), for suites about what tokens may do. */
export async function issueUserTokens(
  baseUrl: string,
  user: { email: string; password: string; workspaceId?: string },
  scope: string,
): Promise<{ access_token: string; refresh_token: string; scope: string; client_id: string }> {
  const redirectUri = 'http://127.0.0.1/callback';
  const registered = await fetch(`${baseUrl}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', scope }),
  });
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  const verifier = randomBytes(32).toString('base64url');
  const url = new URL(`${baseUrl}/oauth/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  const callback = await approveThroughForm(baseUrl, url.toString(), user);
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`no code: ${callback.toString()}`);
  const response = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', client_id: clientId, code, redirect_uri: redirectUri, code_verifier: verifier }).toString(),
  });
  if (response.status !== 200) throw new Error(`token exchange failed: ${await response.text()}`);
  return { ...((await response.json()) as { access_token: string; refresh_token: string; scope: string }), client_id: clientId };
}
