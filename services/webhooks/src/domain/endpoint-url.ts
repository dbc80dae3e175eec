// Where an endpoint may point: https to a public address, or (when the operator allows private
// egress) anything http(s) the egress guard lets through.
import { checkDestination, EgressRefused, egressPolicy, type EgressPolicy } from '@voice/runtime/egress';
import type { FieldIssue } from '@voice/runtime/errors';

export class EndpointUrlRule {
  private readonly policy: EgressPolicy;

  constructor(private readonly allowPrivate: boolean) {
    this.policy = egressPolicy({ allowPrivate });
  }

  /** Undefined when the URL may receive events; else why not. */
  async issue(url: string): Promise<FieldIssue | undefined> {
    const parsed = new URL(url);
    if (parsed.username || parsed.password) return { field: 'url', issue: 'must not carry a user name or password' };
    if (parsed.protocol !== 'https:' && !this.allowPrivate) return { field: 'url', issue: 'must be an https URL' };
    try {
      await checkDestination(url, this.policy);
    } catch (error) {
      if (error instanceof EgressRefused) return { field: 'url', issue: 'must be a publicly reachable address, not a private, loopback or reserved one' };
      throw error;
    }
    return undefined;
  }
}
