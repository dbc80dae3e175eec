// Which wallet is the issuer: the root platform workspace's, the one workspace whose identity
// record has no parent. Billing asks once per wallet and keeps the answer in the wallet.
import { Code, ConnectError, createClient, type Client } from '@connectrpc/connect';
import { IdentityService } from '@voice/proto/voice/identity/v1/identity';
import { callHeaders, type CallerSigner } from '@voice/runtime/caller';
import { notFound } from '@voice/runtime/errors';
import { newId } from '@voice/runtime/ids';
import { openInternalChannel, type InProcessServices, type InternalChannel } from '@voice/runtime/internal';

export interface IssuerLookup {
  /** True for the root platform workspace; rejects with not_found for a workspace identity does not know. */
  isIssuer(workspaceId: string): Promise<boolean>;
}

/** The production lookup: IdentityService.GetWorkspace over Connect, as an internal caller naming the workspace. */
export class IdentityIssuerLookup implements IssuerLookup {
  private readonly channel: InternalChannel;
  private readonly identity: Client<typeof IdentityService>;

  /** `local`: the process's in-process services (single-process mode), where identity is called instead of at `identityUrl`. */
  constructor(identityUrl: string, private readonly signer: CallerSigner, local?: InProcessServices) {
    this.channel = openInternalChannel({ name: 'identity', url: identityUrl, defaultTimeoutMs: 10_000 }, local);
    this.identity = createClient(IdentityService, this.channel.transport);
  }

  async isIssuer(workspaceId: string): Promise<boolean> {
    const caller = { workspaceId, principal: { type: 'internal' as const, id: 'billing', name: 'billing' }, scopes: null, requestId: newId() };
    try {
      const { workspace } = await this.identity.getWorkspace({ id: workspaceId }, { headers: callHeaders(this.signer, caller) });
      if (!workspace) throw notFound('workspace');
      return workspace.parentWorkspaceId === '';
    } catch (error) {
      const failure = ConnectError.from(error);
      if (failure.code === Code.NotFound) throw notFound('workspace');
      throw new ConnectError('the identity service could not be asked about the workspace', Code.Unavailable, undefined, undefined, error);
    }
  }

  close(): void {
    this.channel.close();
  }
}
