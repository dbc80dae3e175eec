// Invitations: of a platform's users registered without a password, who accept by choosing it,
// and of pending members of a workspace, who accept by choosing their first password or by
// signing in with the one they have. Writing one with its e-mail, finding the pending invitation
// a token names (on a tenant's domain only that tenant realm's), and accepting it.
import { Code, ConnectError } from '@connectrpc/connect';
import { passwordIssue } from '@voice/runtime/accounts';
import type { SecretBox } from '@voice/runtime/crypto';
import { invalidRequest, notFound } from '@voice/runtime/errors';
import { newId } from '@voice/runtime/ids';
import { oneUseSecret, oneUseSecretHash, oneUseSecretPattern } from '@voice/runtime/signed-tokens';
import type { IdentityCalls } from '../downstream/identity.js';
import type { CustomDomainStore, InvitationRecord, InvitationStore } from '../store/store.js';
import { invitationBaseUrl, invitationLink, invitationMessage } from './message.js';

export interface InvitationsDeps {
  store: InvitationStore & Pick<CustomDomainStore, 'get'>;
  identity: Pick<IdentityCalls, 'setInitialPassword' | 'getWorkspace' | 'acceptMembership'>;
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
  /** The platform of the user's realm; `name` is the inviter's as the e-mail shows it. */
  platform: { id: string; name: string };
  /** For a member invitation: the workspace to join, and whether the invitee signs in rather than chooses a password. */
  membership?: { workspaceId: string; signIn: boolean };
}

export interface InvitationView {
  email: string;
  name: string;
  platformName: string;
  expiresAt: string;
  signIn: boolean;
}

const hourMs = 60 * 60_000;

const hasCode = (error: unknown, code: Code): boolean => error instanceof ConnectError && error.code === code;

export class Invitations {
  constructor(private readonly deps: InvitationsDeps) {}

  /** Stores the invitation and its e-mail together; sending is the relay's business. */
  async invite(invitation: NewInvitation): Promise<void> {
    const { store, box } = this.deps;
    // The token travels in the link; only its hash is stored, so a copy of the database invites nobody.
    const token = oneUseSecret();
    const now = this.deps.now();
    const expiresAt = new Date(now.getTime() + this.deps.ttlHours * hourMs);
    const domain = await store.get(invitation.platform.id, now.toISOString());
    const baseUrl = invitationBaseUrl(domain?.status === 'active' ? domain.domain : undefined, this.deps.publicUrl);
    const message = invitationMessage({
      to: invitation.email,
      userName: invitation.name,
      platformName: invitation.platform.name,
      link: invitationLink(baseUrl, token.secret),
      expiresAt,
      signIn: invitation.membership?.signIn ?? false,
    });
    await store.insertInvitationWithMail(
      {
        id: newId(),
        tokenHash: token.hash,
        userId: invitation.userId,
        platformWorkspaceId: invitation.platform.id,
        workspaceId: invitation.membership?.workspaceId ?? null,
        signIn: invitation.membership?.signIn ?? false,
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

  /**
   * What the invitation page shows; not_found unless the token names a pending, unexpired
   * invitation of the realm `realmWorkspaceId` (empty: the platform's own address, any realm).
   */
  async describe(token: string, realmWorkspaceId: string, requestId: string): Promise<InvitationView> {
    const invitation = await this.pending(token, realmWorkspaceId);
    try {
      // A member invitation is the workspace's; a registration's is the platform's.
      const inviterId = invitation.workspaceId ?? invitation.platformWorkspaceId;
      const inviter = await this.deps.identity.getWorkspace(inviterId, { workspaceId: inviterId, requestId });
      return { email: invitation.email, name: invitation.name, platformName: inviter.name, expiresAt: invitation.expiresAt, signIn: invitation.signIn };
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
  async accept(token: string, password: string, realmWorkspaceId: string, requestId: string): Promise<InvitationRecord> {
    const invitation = await this.pending(token, realmWorkspaceId);
    if (invitation.workspaceId !== null) return this.acceptMembership(invitation, invitation.workspaceId, password, requestId);
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

  /**
   * Identity activates the pending membership once the password is chosen or proved; a wrong one
   * is a refusal the page can show, and the invitation stays usable.
   */
  private async acceptMembership(invitation: InvitationRecord, workspaceId: string, password: string, requestId: string): Promise<InvitationRecord> {
    try {
      await this.deps.identity.acceptMembership(workspaceId, invitation.userId, password, { workspaceId, requestId });
    } catch (error) {
      if (hasCode(error, Code.Unauthenticated)) throw invalidRequest([{ field: 'password', issue: 'is not this account’s password' }]);
      if (hasCode(error, Code.FailedPrecondition)) throw invalidRequest([{ field: 'password', issue: 'was chosen meanwhile: sign in with it' }]);
      if (hasCode(error, Code.NotFound)) {
        // Accepted already (or the member was removed): the link is spent either way.
        await this.deps.store.markInvitationAccepted(invitation.id, this.deps.now().toISOString());
        throw notFound('invitation');
      }
      throw error;
    }
    await this.deps.store.markInvitationAccepted(invitation.id, this.deps.now().toISOString());
    return invitation;
  }

  private async pending(token: string, realmWorkspaceId: string): Promise<InvitationRecord> {
    const invitation = oneUseSecretPattern.test(token) ? await this.deps.store.findInvitationByTokenHash(oneUseSecretHash(token)) : undefined;
    if (!invitation || invitation.acceptedAt !== null || Date.parse(invitation.expiresAt) <= this.deps.now().getTime()) throw notFound('invitation');
    // A tenant's domain serves its own realm's invitations only.
    if (realmWorkspaceId && invitation.platformWorkspaceId !== realmWorkspaceId) throw notFound('invitation');
    return invitation;
  }
}
