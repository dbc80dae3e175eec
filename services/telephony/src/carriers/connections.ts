// Carrier connections: a workspace's own carrier account. Credentials are sealed at rest,
// never returned (masked hints only), and the mask sent back keeps a stored credential as long
// as the address it is sent to stays the same.
import type { WorkspaceCaller } from '@voice/runtime/caller';
import { invalidRequest, notFound, serviceError } from '@voice/runtime/errors';
import { newId } from '@voice/runtime/ids';
import { normalisePage } from '@voice/runtime/validation';
import type {
  CreateCarrierConnectionRequest,
  DeleteCarrierConnectionRequest,
  GetCarrierConnectionRequest,
  ListCarrierConnectionsRequest,
  TestCarrierConnectionRequest,
  UpdateCarrierConnectionRequest,
} from '@voice/proto/voice/telephony/v1/telephony';
import { createConnectionBodySchema, secretMask, updateConnectionBodySchema } from '@voice/contracts/telephony';
import { presentConnection } from '../presenter.js';
import type { ConnectionChanges, ConnectionRecord, ConnectionStore } from '../store/store.js';
import type { TelephonyDeps } from '../deps.js';
import { loadOr404, parseInput } from '../input.js';

/** Where Twilio-compatible connections send requests unless told otherwise. */
export const defaultTwilioBaseUrl = 'https://api.twilio.com';

const withoutTrailingSlash = (url: string): string => url.replace(/\/+$/, '');

export function carrierConnections(deps: TelephonyDeps<ConnectionStore>) {
  const { store, box } = deps;
  const present = (connection: ConnectionRecord) => presentConnection(connection, deps.carriers.accountSidOf(connection));
  const load = (workspaceId: string, id: string) => loadOr404('carrier connection', id, (key) => store.getConnection(workspaceId, key));

  return {
    async createCarrierConnection(request: CreateCarrierConnectionRequest, caller: WorkspaceCaller) {
      const input = parseInput(createConnectionBodySchema, {
        name: request.name,
        provider: request.provider,
        base_url: request.baseUrl,
        account_sid: request.accountSid,
        auth_token: request.authToken,
      });
      if (input.provider === 'sandbox' && !deps.carriers.sandboxConnectionsAllowed()) {
        throw invalidRequest([{ field: 'provider', issue: 'sandbox connections exist only on a platform whose own carrier is the sandbox' }]);
      }
      const at = deps.now().toISOString();
      const connection = await store.insertConnection({
        id: newId(),
        workspaceId: caller.workspaceId,
        name: input.name,
        provider: input.provider,
        baseUrl: input.provider === 'sandbox' ? '' : withoutTrailingSlash(input.base_url ?? defaultTwilioBaseUrl),
        sealedAccountSid: box.seal(input.account_sid),
        sealedAuthToken: box.seal(input.auth_token),
        createdAt: at,
        updatedAt: at,
      });
      return { connection: present(connection) };
    },

    async listCarrierConnections(request: ListCarrierConnectionsRequest, caller: WorkspaceCaller) {
      const { connections, total } = await store.listConnections(caller.workspaceId, normalisePage(request.page));
      return { connections: connections.map(present), total };
    },

    async getCarrierConnection(request: GetCarrierConnectionRequest, caller: WorkspaceCaller) {
      return { connection: present(await load(caller.workspaceId, request.id)) };
    },

    async updateCarrierConnection(request: UpdateCarrierConnectionRequest, caller: WorkspaceCaller) {
      const input = parseInput(updateConnectionBodySchema, {
        name: request.name,
        base_url: request.baseUrl,
        account_sid: request.accountSid,
        auth_token: request.authToken,
      });
      const current = await load(caller.workspaceId, request.id);
      const baseUrl = input.base_url === undefined ? undefined : withoutTrailingSlash(input.base_url);
      if (baseUrl !== undefined && current.provider === 'sandbox') {
        throw invalidRequest([{ field: 'base_url', issue: 'the sandbox carrier takes no base_url' }]);
      }
      const moved = baseUrl !== undefined && baseUrl !== current.baseUrl;
      const sealed = (field: 'account_sid' | 'auth_token', value: string | undefined): string | undefined => {
        if (value === undefined || value === secretMask) {
          if (moved && field === 'auth_token') {
            throw invalidRequest([{ field, issue: 'must be sent again when base_url changes, so the stored token never goes to a new address' }]);
          }
          return undefined;
        }
        return box.seal(value);
      };
      const changes: ConnectionChanges = {
        name: input.name,
        baseUrl,
        sealedAccountSid: sealed('account_sid', input.account_sid),
        sealedAuthToken: sealed('auth_token', input.auth_token),
      };
      const updated = await store.updateConnection(caller.workspaceId, current.id, changes, deps.now().toISOString());
      if (!updated) throw notFound('carrier connection');
      return { connection: present(updated) };
    },

    async deleteCarrierConnection(request: DeleteCarrierConnectionRequest, caller: WorkspaceCaller) {
      const connection = await load(caller.workspaceId, request.id);
      const outcome = await store.deleteConnection(caller.workspaceId, connection.id);
      if (outcome === 'in_use') {
        throw serviceError('conflict', 'the connection still serves phone numbers or A2P campaigns; release or re-import them first');
      }
      if (outcome === 'not_found') throw notFound('carrier connection');
      return {};
    },

    async testCarrierConnection(request: TestCarrierConnectionRequest, caller: WorkspaceCaller) {
      const connection = await load(caller.workspaceId, request.id);
      const started = performance.now();
      const result = await deps.carriers.forConnection(connection).testConnection();
      const durationMs = Math.round(performance.now() - started);
      return result.ok ? { ok: true, failure: '', message: '', durationMs } : { ok: false, failure: result.failure, message: result.message, durationMs };
    },
  };
}
