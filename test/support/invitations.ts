// Invitations as the invitee meets them: the e-mail a platform without SMTP wrote to its data
// directory's mail outbox, and the invitation page its link opens. Members join this way only.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import PostalMime from 'postal-mime';
import type { ApiResponse } from './api-client.js';
import type { TestPlatform } from './platform.js';
import { eventually } from './telephony.js';

/** Messages already taken by a test, so a second invitation to one address is told from the first. */
const taken = new Set<string>();

/** The link of the newest invitation to `email` no test took yet. */
export async function invitationLinkTo(platform: Pick<TestPlatform, 'dataDir'>, email: string): Promise<URL> {
  const outbox = join(platform.dataDir, 'mail-outbox');
  const file = await eventually(
    async () => {
      if (!existsSync(outbox)) return undefined;
      for (const name of readdirSync(outbox).filter((entry) => entry.endsWith('.eml')).sort().reverse()) {
        const path = join(outbox, name);
        if (taken.has(path)) continue;
        const parsed = await PostalMime.parse(readFileSync(path));
        if (parsed.to?.some((to) => to.address === email)) return { path, text: parsed.text ?? '' };
      }
      return undefined;
    },
    10_000,
    `an invitation e-mail to ${email}`,
  );
  taken.add(file.path);
  return new URL(/https?:\/\/\S+\/invitations\/[A-Za-z0-9_-]+/.exec(file.text)![0]);
}

/** Posts the invitation page's form (whatever host the link names, served by the test's gateway); the page's status and HTML. */
export async function answerInvitation(platform: Pick<TestPlatform, 'running'>, link: URL, password: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${platform.running.url}${link.pathname}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ password, password_confirmation: password }),
  });
  return { status: response.status, html: await response.text() };
}

/**
 * Adds a member the way people become one: the workspace invites the e-mail (POST
 * /workspace/members) and the invitee accepts through the e-mailed link with `password` (the one
 * a new user chooses, or the one an existing user has). Answers the invitation's response.
 */
export async function addAcceptedMember(
  platform: Pick<TestPlatform, 'api' | 'dataDir' | 'running'>,
  workspaceKey: string,
  member: { email: string; role: string; name?: string },
  password: string,
): Promise<ApiResponse> {
  const invited = await platform.api.post('/workspace/members', workspaceKey, member);
  if (invited.status !== 201) return invited;
  const accepted = await answerInvitation(platform, await invitationLinkTo(platform, member.email), password);
  if (accepted.status !== 200) throw new Error(`the invitation was not accepted (${accepted.status}): ${accepted.html}`);
  return invited;
}
