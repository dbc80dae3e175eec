// Invitations of users registered without a password: writing one with its e-mail, finding the
// pending invitation a token names, and accepting it by choosing the password.
import { Code, ConnectError } from '@connectrpc/connect';
import { passwordIssue } from '@voice/runtime/accounts';
import type { SecretBox } from '@voice/runtime/crypto';
import { invalidRequest, notFound } from '@voice/runtime/errors';
import { newId } from '@voice/runtime/ids';
import type { IdentityCalls } from '../downstream/identity.js';
import type { CustomDomainStore, InvitationRecord, InvitationStore } from '../store/store.js';
import { invitationBaseUrl, invitationLink, invitationMessage } from './message.js';
import { invitationTokenHash, looksLikeInvitationToken, newInvitationToken } from './tokens.js';

export interface InvitationsDeps {
  store: InvitationStore & Pick<CustomDomainStore, 'get'>;
  identity: Pick<IdentityCalls, 'setInitialPassword' | 'getWorkspace'>;
  /** Seals the e-mail bodies, which carry the token. */
  box: SecretBox;
  publicUrl: string;
  ttlHours: number;
  /** Told once an e-mail is stored, so it goes out at once (the mail relay's wake). */
  mailQueued(): void;
  now(): Date;
}

export interface NewInvitation {
  userId: string;
  email: string;
  name: string;
  platform: { id: string; name: string };
}

export interface InvitationView {
  email: string;
  name: string;
  platformName: string;
  expiresAt: string;
}

const hourMs = 60 * 60_000;

const hasCode = (error: unknown, code: Code): boolean => error instanceof ConnectError && error.code === code;

export class Invitations {
  constructor(private readonly deps: InvitationsDeps) {}

  /** Stores the invitation and its e-mail together; sending is the relay's business. */
  async invite(invitation: NewInvitation): Promise<void> {
    const { store, box } = this.deps;
    const token = newInvitationToken();
    const now = this.deps.now();
    const expiresAt = new Date(now.getTime() + this.deps.ttlHours * hourMs);
    const domain = await store.get(invitation.platform.id, now.toISOString());
    const baseUrl = invitationBaseUrl(domain?.status === 'active' ? domain.domain : undefined, this.deps.publicUrl);
    const message = invitationMessage({
      to: invitation.email,
      userName: invitation.name,
      platformName: invitation.platform.name,
      link: invitationLink(baseUrl, token),
      expiresAt,
    });
    await store.insertInvitationWithMail(
      {
        id: newId(),
        tokenHash: invitationTokenHash(token),
        userId: invitation.userId,
        platformWorkspaceId: invitation.platform.id,
        email: invitation.email,
        name: invitation.name,
        expiresAt: expiresAt.toISOString(),
        acceptedAt: null,
        createdAt: now.toISOString(),
      },
      { id: newId(), to: message.to, subject: message.subject, sealedText: box.seal(message.text), sealedHtml: box.seal(message.html), createdAt: now.toISOString() },
    );
    this.deps.mailQueued();
  }

  /** What the invitation page shows; not_found unless the token names a pending, unexpired invitation. */
  async describe(token: string, requestId: string): Promise<InvitationView> {
    const invitation = await this.pending(token);
    try {
      const platform = await this.deps.identity.getWorkspace(invitation.platformWorkspaceId, { workspaceId: invitation.platformWorkspaceId, requestId });
      return { email: invitation.email, name: invitation.name, platformName: platform.name, expiresAt: invitation.expiresAt };
    } catch (error) {
      if (hasCode(error, Code.NotFound)) throw notFound('invitation');
      throw error;
    }
  }

  /**
   * Sets the user's first password, then marks the invitation accepted. Identity sets a first
   * password once, so of two concurrent accepts exactly one gets past it; the other finds the
   * invitation gone.
   */
  async accept(token: string, password: string, requestId: string): Promise<InvitationRecord> {
    const invitation = await this.pending(token);
    const issue = passwordIssue(password);
    if (issue) throw invalidRequest([{ field: 'password', issue }]);
    try {
      await this.deps.identity.setInitialPassword(invitation.userId, password, { workspaceId: invitation.platformWorkspaceId, requestId });
    } catch (error) {
      if (hasCode(error, Code.FailedPrecondition)) {
        // The user has a password already: another accept won, or an earlier one was not marked.
        await this.deps.store.markInvitationAccepted(invitation.id, this.deps.now().toISOString());
        throw notFound('invitation');
      }
      if (hasCode(error, Code.NotFound)) throw notFound('invitation');
      throw error;
    }
    // This call chose the password, so it succeeded whether or not a loser marked the invitation first.
    await this.deps.store.markInvitationAccepted(invitation.id, this.deps.now().toISOString());
    return invitation;
  }

  private async pending(token: string): Promise<InvitationRecord> {
    const invitation = looksLikeInvitationToken(token) ? await this.deps.store.findInvitationByTokenHash(invitationTokenHash(token)) : undefined;
    if (!invitation || invitation.acceptedAt !== null || Date.parse(invitation.expiresAt) <= this.deps.now().getTime()) throw notFound('invitation');
    return invitation;
  }
}
