// The invitation e-mail: where the link points, and what the parts say (names escaped in HTML).
import { escapeHtml, invitationBaseUrl, invitationLink, invitationMessage } from '../src/invitations/message.js';

const expiresAt = new Date('2026-11-29T10:00:00.250Z');

test('the link goes to the active custom domain when the platform has one', () => {
  expect(invitationLink(invitationBaseUrl('voice.acme.com', 'https://voice.example.net'), 'tok')).toBe('https://voice.acme.com/invitations/tok');
});

test('otherwise the link goes to the public URL', () => {
  expect(invitationLink(invitationBaseUrl(undefined, 'https://voice.example.net/'), 'tok')).toBe('https://voice.example.net/invitations/tok');
  expect(invitationLink(invitationBaseUrl(undefined, 'http://127.0.0.1:8080'), 'tok')).toBe('http://127.0.0.1:8080/invitations/tok');
});

test('the message names the platform, the user, the link and the expiry in RFC 3339 UTC', () => {
  const message = invitationMessage({
    to: 'ada@example.com',
    userName: 'Ada',
    platformName: 'Acme Voice',
    link: 'https://voice.acme.com/invitations/tok',
    expiresAt,
  });
  expect(message.to).toBe('ada@example.com');
  expect(message.subject).toBe("You're invited to Acme Voice");
  for (const part of [message.text, message.html]) {
    expect(part).toContain('Hello Ada,');
    expect(part).toContain('Acme Voice');
    expect(part).toContain('https://voice.acme.com/invitations/tok');
    expect(part).toContain('2026-11-29T10:00:00Z');
  }
  expect(message.html).toContain('<a href="https://voice.acme.com/invitations/tok">');
});

test('names are escaped in the HTML part and kept as they are in the text part', () => {
  const message = invitationMessage({
    to: 'x@example.com',
    userName: '<b>"x"&',
    platformName: "<script>alert('p')</script>",
    link: 'https://voice.example.net/invitations/tok',
    expiresAt,
  });
  expect(message.html).toContain('Hello &lt;b&gt;&quot;x&quot;&amp;,');
  expect(message.html).toContain('&lt;script&gt;alert(&#39;p&#39;)&lt;/script&gt;');
  expect(message.html).not.toContain('<b>');
  expect(message.html).not.toContain('<script>');
  expect(message.text).toContain('Hello <b>"x"&,');
  expect(escapeHtml('<b>"x"&')).toBe('&lt;b&gt;&quot;x&quot;&amp;');
});

test('line breaks in a name cannot reach the subject header', () => {
  const message = invitationMessage({ to: 'x@example.com', userName: 'Ada', platformName: 'Acme\r\nBcc: victim@example.com', link: 'https://l', expiresAt });
  expect(message.subject).toBe("You're invited to Acme Bcc: victim@example.com");
});

test('an invitee with an account is asked to sign in, a new one to choose a password', () => {
  const base = { to: 'ada@example.com', userName: 'Ada', platformName: 'Acme Voice', link: 'https://l', expiresAt };
  const signIn = invitationMessage({ ...base, signIn: true });
  const choose = invitationMessage(base);
  for (const part of [signIn.text, signIn.html]) {
    expect(part).toContain('Sign in with your password to accept the invitation');
    expect(part).not.toContain('Choose a password');
  }
  for (const part of [choose.text, choose.html]) expect(part).toContain('Choose a password to accept the invitation');
});
