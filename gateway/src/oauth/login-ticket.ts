// After a correct password, a member of several workspaces picks one; the ticket carries the
// signed-in user to that second step without asking for the password again.
import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '@voice/runtime/crypto';

const lifetimeMs = 5 * 60_000;

export class LoginTickets {
  constructor(private readonly key: Buffer, private readonly clock: () => number = Date.now) {}

  issue(userId: string, clientId: string): string {
    const body = Buffer.from(JSON.stringify({ u: userId, c: clientId, e: this.clock() + lifetimeMs })).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  /** The user id, if the ticket is ours, unexpired and for this client. */
  verify(ticket: string, clientId: string): string | undefined {
    const [body, mac] = ticket.split('.');
    if (!body || !mac || !constantTimeEqual(mac, this.mac(body))) return undefined;
    try {
      const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { u: string; c: string; e: number };
      return claims.c === clientId && claims.e > this.clock() ? claims.u : undefined;
    } catch {
      return undefined;
    }
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(`login:${body}`).digest('base64url');
  }
}
