// The three pages of the authorization endpoint: sign in and approve, choose a workspace, and
// an error that must not be sent to an untrusted redirect URI.
import { escapeHtml, hiddenFields, page } from './html.js';

export interface ConsentView {
  platformName: string;
  clientName: string;
  clientUri: string;
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

const clientTitle = (view: { clientName: string }) => view.clientName || 'An application';

function scopeList(scopes: string[]): string {
  return `<ul class="scopes">${scopes.map((s) => `<li>${escapeHtml(scopeLabel(s))} <span class="muted">(${escapeHtml(s)})</span></li>`).join('')}</ul>`;
}

const errorBox = (error?: string) => (error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : '');

export function consentPage(view: ConsentView): string {
  const client = clientTitle(view);
  const from = view.clientUri ? `<p class="muted">${escapeHtml(view.clientUri)}</p>` : '';
  return page(
    'Sign in',
    view.platformName,
    `<h1>${escapeHtml(client)} wants to access your workspace</h1>
${from}
${errorBox(view.error)}
<p>Sign in to allow it to:</p>
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
  clientName: string;
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
    `<h1>Choose the workspace for ${escapeHtml(clientTitle(view))}</h1>
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
