// The invitation e-mail: where its link points, and its subject, text and HTML parts.

export interface InvitationMessageInput {
  to: string;
  /** The invited user's name. */
  userName: string;
  platformName: string;
  link: string;
  expiresAt: Date;
  /** The invitee has an account and accepts by signing in, rather than by choosing a password. */
  signIn?: boolean;
}

export interface InvitationMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * The base of the platform's own pages: its active custom domain when it has one (its users
 * know that address, not ours), else the platform's public URL.
 */
export function invitationBaseUrl(activeCustomDomain: string | undefined, publicUrl: string): string {
  return activeCustomDomain ? `https://${activeCustomDomain}` : publicUrl.replace(/\/+$/, '');
}

export const invitationLink = (baseUrl: string, token: string): string => `${baseUrl}/invitations/${token}`;

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (character) => escapes[character]!);

/** Names end up in a header: no line breaks or other control characters. */
const oneLine = (text: string): string => text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();

/** RFC 3339 in UTC, to the second. */
const rfc3339 = (at: Date): string => at.toISOString().replace(/\.\d{3}Z$/, 'Z');

const action = (input: InvitationMessageInput): string => (input.signIn ? 'Sign in with your password' : 'Choose a password');

export function invitationMessage(input: InvitationMessageInput): InvitationMessage {
  const platform = oneLine(input.platformName);
  const user = oneLine(input.userName);
  const expires = rfc3339(input.expiresAt);
  const greeting = user ? `Hello ${user},` : 'Hello,';
  const text = [
    greeting,
    '',
    `${platform} has invited you. ${action(input)} to accept the invitation:`,
    '',
    input.link,
    '',
    `The link works until ${expires}.`,
    '',
    'If you did not expect this invitation, you can ignore this e-mail.',
    '',
  ].join('\r\n');
  const html = [
    '<!doctype html>',
    '<html><body>',
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(platform)} has invited you. ${action(input)} to accept the invitation:</p>`,
    `<p><a href="${escapeHtml(input.link)}">${escapeHtml(input.link)}</a></p>`,
    `<p>The link works until ${escapeHtml(expires)}.</p>`,
    '<p>If you did not expect this invitation, you can ignore this e-mail.</p>',
    '</body></html>',
    '',
  ].join('\r\n');
  return { to: input.to, subject: `You're invited to ${platform}`, text, html };
}
