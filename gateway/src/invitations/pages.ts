// The invitation pages: choose a password for an invited account, and what follows.
import { passwordLength } from '@voice/runtime/accounts';
import { escapeHtml, page } from '../oauth/page/html.js';

export interface InvitationView {
  platformName: string;
  email: string;
  name: string;
  /** Where the form posts: the invitation's own path. */
  action: string;
  error?: string;
}

export function choosePasswordPage(view: InvitationView): string {
  const error = view.error ? `<p class="error" role="alert">${escapeHtml(view.error)}</p>\n` : '';
  return page(
    'Choose your password',
    view.platformName,
    `<h1>Welcome, ${escapeHtml(view.name)}</h1>
<p class="muted">Choose a password for ${escapeHtml(view.email)} to finish setting up your account.</p>
${error}<form method="post" action="${escapeHtml(view.action)}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="${passwordLength.min}" maxlength="${passwordLength.max}" required>
<div class="actions"><button class="approve" type="submit">Set password</button></div>
</form>`,
  );
}

export function passwordSetPage(platformName: string, email: string): string {
  return page(
    'Your account is ready',
    platformName,
    `<h1>Your account is ready</h1>\n<p>You can now sign in as ${escapeHtml(email)} with the password you chose.</p>`,
  );
}
