// After a correct password, a member of several workspaces picks one; the ticket carries the
// signed-in user to that second step without asking for the password again.
import type { Signer } from '@voice/runtime/signed-tokens';

const lifetimeMs = 5 * 60_000;

export class LoginTickets {
  constructor(private readonly signer: Signer, private readonly clock: () => number = Date.now) {}

  issue(userId: string, clientId: string): string {
    return this.signer.seal(JSON.stringify({ u: userId, c: clientId, e: this.clock() + lifetimeMs }));
  }

  /** The user id, if the ticket is ours, unexpired and for this client. */
  verify(ticket: string, clientId: string): string | undefined {
    const payload = this.signer.open(ticket);
    if (payload === undefined) return undefined;
    try {
      const claims = JSON.parse(payload) as { u: string; c: string; e: number };
      return claims.c === clientId && claims.e > this.clock() ? claims.u : undefined;
    } catch {
      return undefined;
    }
  }
}
