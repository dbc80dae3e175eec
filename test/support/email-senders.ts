// E-mail senders as a workspace gets them: added through the API, confirmed through the link the
// platform e-mailed to the address (read from the SMTP server on loopback).
import type { TestPlatform } from './platform.js';
import { uniqueEmail } from './platform.js';
import type { SmtpSink } from './smtp-sink.js';

export interface SenderView {
  id: string;
  address: string;
  status: string;
  verified_at: string | null;
}

/** Adds a sender; its answer and the confirmation link e-mailed to it. */
export async function addSender(platform: TestPlatform, smtp: SmtpSink, key: string, address = uniqueEmail('sender')): Promise<{ sender: SenderView; link: URL }> {
  const created = await platform.api.post('/email-senders', key, { address, name: 'Front desk' });
  if (created.status !== 201) throw new Error(`the sender was not added (${created.status}): ${created.text}`);
  const mail = await smtp.messageTo(address.toLowerCase());
  const link = new URL(/https?:\/\/\S+\/email-senders\/confirm\/[A-Za-z0-9_.-]+/.exec(mail.parsed.text ?? '')![0]);
  return { sender: created.body.data as SenderView, link };
}

/** The confirmation page of a link on the test's gateway: GET shows it, POST confirms. */
export const openConfirmation = (platform: TestPlatform, link: URL | string, method: 'GET' | 'POST' = 'GET') =>
  fetch(`${platform.running.url}${typeof link === 'string' ? link : link.pathname}`, {
    method,
    headers: method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
    body: method === 'POST' ? '' : undefined,
  });

/** A sender added and confirmed through its link. */
export async function verifiedSender(platform: TestPlatform, smtp: SmtpSink, key: string, address?: string): Promise<SenderView> {
  const { sender, link } = await addSender(platform, smtp, key, address);
  const confirmed = await openConfirmation(platform, link, 'POST');
  if (confirmed.status !== 200) throw new Error(`the sender was not confirmed (${confirmed.status})`);
  return { ...sender, status: 'verified' };
}
