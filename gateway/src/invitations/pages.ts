// The invitation pages: choose a password for an invited account, or sign in to accept joining a
// workspace, and what follows.
import { passwordLength } from '@voice/runtime/accounts';
import { escapeHtml, page } from '../oauth/page/html.js';

export interface InvitationView {
  platformName: string;
  email: string;
  name: string;
  /** Where the form posts: the invitation's own path. */
  action: string;
  /** The invitee has an account and signs in with its password to accept. */
  signIn: boolean;
  error?: string;
}

/** The form the invitation asks for: a new password, or the one the invitee has. */
export const invitationPage = (view: InvitationView): string => (view.signIn ? signInToAcceptPage(view) : choosePasswordPage(view));

function signInToAcceptPage(view: InvitationView): string {
  const error = view.error ? `<p class="error" role="alert">${escapeHtml(view.error)}</p>\n` : '';
  return page(
    'Accept your invitation',
    view.platformName,
    `<h1>Join ${escapeHtml(view.platformName)}</h1>
<p class="muted">Sign in as ${escapeHtml(view.email)} to accept the invitation.</p>
${error}<form method="post" action="${escapeHtml(view.action)}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" maxlength="${passwordLength.max}" required>
<div class="actions"><button class="approve" type="submit">Sign in and accept</button></div>
</form>`,
  );
}

function choosePasswordPage(view: InvitationView): string {
  const error = view.error ? `<p class="error" role="alert">${escapeHtml(view.error)}</p>\n` : '';
  return page(
    'Choose your password',
    view.platformName,
    `<h1>Welcome, ${escapeHtml(view.name)}</h1>
<p class="muted">Choose a password for ${escapeHtml(view.email)} to finish setting up your account.</p>
${error}<form method="post" action="${escapeHtml(view.action)}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="${passwordLength.min}" maxlength="${passwordLength.max}" required>
<label for="password_confirmation">Confirm password</label>
<input id="password_confirmation" name="password_confirmation" type="password" autocomplete="new-password" minlength="${passwordLength.min}" maxlength="${passwordLength.max}" required>
<p class="muted">At least ${passwordLength.min} characters.</p>
<div class="actions"><button class="approve" type="submit">Set password</button></div>
</form>`,
  );
}

/** The page after acceptance: what happened, and what to do next. */
export function passwordSetPage(platformName: string, email: string, signedIn: boolean): string {
  const name = escapeHtml(platformName);
  const text = signedIn ? `You have joined ${name} as ${escapeHtml(email)}.` : `You can now sign in as ${escapeHtml(email)} with the password you chose.`;
  return page(
    'Your account is ready',
    platformName,
    `<h1>Your account is ready</h1>
<p>${text}</p>
<h2>What next</h2>
<p>Go back to the app that invited you and sign in: when it sends you to ${name}’s sign-in page, use ${escapeHtml(email)} and your password.
You can close this page.</p>
<p class="muted">Building on ${name}? The <a href="/docs">API reference</a> shows how to connect with OAuth or an API key.</p>`,
  );
}
