// The three pages of the authorization endpoint: sign in and approve, choose a workspace, and
// an error that must not be sent to an untrusted redirect URI. They say what is known about a
// client (where the code goes, who published a metadata document) and show what a client says
// of itself (name, address) only as its unverified claim.
import { escapeHtml, hiddenFields, page } from './html.js';

/** What the pages know of the client of an authorization request. */
export interface ClientView {
  /** The host (and port) of the redirect URI the code is sent to; punycode stays punycode, so look-alikes show. */
  redirectHost: string;
  /** True for an http redirect to 127.0.0.1 or [::1]: an application on the user's own computer. */
  redirectLoopback: boolean;
  /** For a client identified by a Client ID Metadata Document: the host that published it (proven by TLS). */
  documentHost?: string;
  /** What the client calls itself, unverified; empty when it says nothing. */
  claimedName: string;
  claimedUri: string;
}

export interface ConsentView {
  platformName: string;
  client: ClientView;
  scopes: string[];
  /** The authorization request, carried through the form unchanged. */
  request: Record<string, string>;
  csrfToken: string;
  error?: string;
  email?: string;
}

const scopeLabel = (scope: string): string => {
  const [area = scope, access] = scope.split(':');
  const name = area.replace(/_/g, ' ');
  return access === 'write' ? `Read and change ${name}` : `Read ${name}`;
};

function scopeList(scopes: string[]): string {
  return `<ul class="scopes">${scopes.map((s) => `<li>${escapeHtml(scopeLabel(s))} <span class="muted">(${escapeHtml(s)})</span></li>`).join('')}</ul>`;
}

const errorBox = (error?: string) => (error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : '');

/** Where the code goes, who vouches for the client, and its claims marked as such. */
function clientFacts(client: ClientView): string {
  const destination = client.redirectLoopback ? `this computer (${client.redirectHost})` : client.redirectHost;
  const identity = client.documentHost
    ? `<p>The application is described by a document published at <strong>${escapeHtml(client.documentHost)}</strong>.</p>`
    : '<p class="unverified">Unverified application: it registered itself with this server, and nobody has checked who runs it.</p>';
  const claimed = [client.claimedName && `“${client.claimedName}”`, client.claimedUri].filter(Boolean).join(', ');
  const claim = claimed ? `<p class="claim">It calls itself ${escapeHtml(claimed)}: not verified.</p>` : '';
  return `<div class="destination"><p class="muted">Allowing sends your approval to</p><p class="redirect-host">${escapeHtml(destination)}</p></div>
${identity}
${claim}`;
}

export function consentPage(view: ConsentView): string {
  return page(
    'Sign in',
    view.platformName,
    `<h1>An application wants to access your workspace</h1>
${clientFacts(view.client)}
${errorBox(view.error)}
<p>Sign in only if you trust that destination. It will be allowed to:</p>
${scopeList(view.scopes)}
<form method="post" action="/oauth/authorize">
${hiddenFields({ ...view.request, csrf_token: view.csrfToken })}
<label for="email">E-mail</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(view.email ?? '')}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<div class="actions">
<button class="approve" type="submit" name="action" value="approve">Sign in and allow</button>
<button class="deny" type="submit" name="action" value="deny" formnovalidate>Deny</button>
</div>
</form>`,
  );
}

export interface WorkspaceChoiceView {
  platformName: string;
  client: ClientView;
  scopes: string[];
  request: Record<string, string>;
  csrfToken: string;
  loginTicket: string;
  workspaces: { id: string; name: string; role: string }[];
}

export function workspaceChoicePage(view: WorkspaceChoiceView): string {
  const options = view.workspaces
    .map((w) => `<option value="${escapeHtml(w.id)}">${escapeHtml(w.name)} (${escapeHtml(w.role)})</option>`)
    .join('');
  return page(
    'Choose a workspace',
    view.platformName,
    `<h1>Choose the workspace the application may access</h1>
${clientFacts(view.client)}
${scopeList(view.scopes)}
<form method="post" action="/oauth/authorize">
${hiddenFields({ ...view.request, csrf_token: view.csrfToken, login_ticket: view.loginTicket })}
<label for="workspace_id">Workspace</label>
<select id="workspace_id" name="workspace_id">${options}</select>
<div class="actions">
<button class="approve" type="submit" name="action" value="approve">Allow</button>
<button class="deny" type="submit" name="action" value="deny">Deny</button>
</div>
</form>`,
  );
}

export function errorPage(platformName: string, title: string, message: string): string {
  return page(title, platformName, `<h1>${escapeHtml(title)}</h1>\n<p class="error" role="alert">${escapeHtml(message)}</p>`);
}
