// The services speak real gRPC and gRPC-Web, not only Connect: a @grpc/grpc-js client and a
// gRPC-Web client call them, with the same signed-caller rule.
import * as grpc from '@grpc/grpc-js';
import { create } from '@bufbuild/protobuf';
import { createClient } from '@connectrpc/connect';
import { createGrpcWebTransport, Http2SessionManager } from '@connectrpc/connect-node';
import { Health, HealthCheckResponse_ServingStatus as ServingStatus } from '@voice/proto/grpc/health/v1/health';
import { BillingService } from '@voice/proto/voice/billing/v1/billing';
import { IdentityService } from '@voice/proto/voice/identity/v1/identity';
import { AddSuppressionRequestSchema, TelephonyService } from '@voice/proto/voice/telephony/v1/telephony';
import { CreateToolRequestSchema, GetToolRequestSchema, ToolsService } from '@voice/proto/voice/tools/v1/tools';
import { callHeaders } from '@voice/runtime/caller';
import { grpcJsClient } from './support/grpc-js.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';

let platform: TestPlatform;
let workspace: { id: string; key: string };

beforeAll(async () => {
  platform = await startTestPlatform();
  workspace = await platform.workspace();
});
afterAll(() => platform.close());

const hostOf = (url: string) => new URL(url).host;

const signedMetadata = (workspaceId: string, scopes: string[] | null = null) => {
  const metadata = new grpc.Metadata();
  const headers = callHeaders(platform.signer, { workspaceId, principal: { type: 'internal', id: 'grpc-js', name: 'grpc-js' }, scopes, requestId: 'grpc-js-1' });
  for (const [name, value] of Object.entries(headers)) metadata.set(name, value);
  return metadata;
};

describe('@grpc/grpc-js client', () => {
  test('the standard health service answers SERVING for the server and for the service', async () => {
    const health = grpcJsClient(Health, hostOf(platform.running.services.tools));
    try {
      expect((await health.call.Check!({ service: '' }, new grpc.Metadata())).status).toBe(ServingStatus.SERVING);
      expect((await health.call.Check!({ service: ToolsService.typeName }, new grpc.Metadata())).status).toBe(ServingStatus.SERVING);
      await expect(health.call.Check!({ service: 'nope.v1.Nothing' }, new grpc.Metadata())).rejects.toMatchObject({ code: grpc.status.NOT_FOUND });
    } finally {
      health.close();
    }
  });

  test.each([
    ['telephony', TelephonyService.typeName],
    ['billing', BillingService.typeName],
  ] as const)('the %s service answers health checks for itself', async (name, typeName) => {
    const health = grpcJsClient(Health, hostOf(platform.running.services[name]));
    try {
      expect((await health.call.Check!({ service: typeName }, new grpc.Metadata())).status).toBe(ServingStatus.SERVING);
    } finally {
      health.close();
    }
  });

  test('telephony and billing answer grpc-js calls: a suppression entry and the balance', async () => {
    const telephony = grpcJsClient(TelephonyService, hostOf(platform.running.services.telephony));
    const billing = grpcJsClient(BillingService, hostOf(platform.running.services.billing));
    try {
      const added = await telephony.call.AddSuppression!(create(AddSuppressionRequestSchema, { number: '+442071838751', reason: 'grpc' }), signedMetadata(workspace.id));
      expect(added.suppression.number).toBe('+442071838751');
      const rest = await platform.api.get('/suppression', workspace.key);
      expect(rest.body.data.map((entry: { id: string }) => entry.id)).toContain(added.suppression.id);
      await platform.fund(workspace.id, '2.5000');
      const { wallet } = await billing.call.GetBalance!({}, signedMetadata(workspace.id));
      expect([wallet.balance.creditUnits, wallet.issuer]).toEqual([25000n, false]);
      await expect(telephony.call.SendSms!({ fromNumberId: 'nope', to: '+1', body: '' }, signedMetadata(workspace.id))).rejects.toMatchObject({
        code: grpc.status.INVALID_ARGUMENT,
      });
    } finally {
      telephony.close();
      billing.close();
    }
  });

  test('a tool created over gRPC is the tool the REST API serves', async () => {
    const tools = grpcJsClient(ToolsService, hostOf(platform.running.services.tools));
    try {
      const created = await tools.call.CreateTool!(
        create(CreateToolRequestSchema, { name: 'grpc_made', type: 'api', config: { url: 'https://a.example', headers: { 'X-K': 'grpc-secret-1' } } }),
        signedMetadata(workspace.id),
      );
      expect(created.tool.config.headers).toEqual({ 'X-K': '\u2022\u2022\u2022' });
      const read = await tools.call.GetTool!(create(GetToolRequestSchema, { id: created.tool.id }), signedMetadata(workspace.id));
      expect(read.tool.name).toBe('grpc_made');
      const rest = await platform.api.get(`/tools/${created.tool.id}`, workspace.key);
      expect(rest.body.data).toMatchObject({ id: created.tool.id, name: 'grpc_made', revision: 1 });
    } finally {
      tools.close();
    }
  });

  test('service errors arrive as the matching gRPC status', async () => {
    const tools = grpcJsClient(ToolsService, hostOf(platform.running.services.tools));
    try {
      await expect(tools.call.GetTool!({ id: '6f1c1d7e-9a5b-4c1e-8f00-123456789abc' }, signedMetadata(workspace.id))).rejects.toMatchObject({ code: grpc.status.NOT_FOUND });
      await expect(tools.call.CreateTool!(create(CreateToolRequestSchema, { name: '1bad', type: 'api' }), signedMetadata(workspace.id))).rejects.toMatchObject({
        code: grpc.status.INVALID_ARGUMENT,
      });
    } finally {
      tools.close();
    }
  });

  test('calls without a valid signed caller are refused: the public cannot reach services directly', async () => {
    const tools = grpcJsClient(ToolsService, hostOf(platform.running.services.tools));
    const identity = grpcJsClient(IdentityService, hostOf(platform.running.services.identity));
    try {
      await expect(tools.call.GetTool!({ id: '6f1c1d7e-9a5b-4c1e-8f00-123456789abc' }, new grpc.Metadata())).rejects.toMatchObject({ code: grpc.status.UNAUTHENTICATED });
      const forged = new grpc.Metadata();
      forged.set('x-voice-caller', Buffer.from(JSON.stringify({ workspaceId: workspace.id })).toString('base64url') + '.forged');
      await expect(tools.call.ListTools!({}, forged)).rejects.toMatchObject({ code: grpc.status.UNAUTHENTICATED });
      await expect(identity.call.Authenticate!({ credential: platform.rootKey }, new grpc.Metadata())).rejects.toMatchObject({ code: grpc.status.UNAUTHENTICATED });
    } finally {
      tools.close();
      identity.close();
    }
  });

  test('a workspace-signed caller cannot use internal-only identity methods', async () => {
    const identity = grpcJsClient(IdentityService, hostOf(platform.running.services.identity));
    try {
      const metadata = new grpc.Metadata();
      const headers = callHeaders(platform.signer, { workspaceId: workspace.id, principal: { type: 'service_account', id: 'x', name: 'x' }, scopes: null, requestId: 'r' });
      for (const [name, value] of Object.entries(headers)) metadata.set(name, value);
      await expect(identity.call.CreateWorkspace!({ name: 'x', plan: 'enterprise', parentWorkspaceId: workspace.id }, metadata)).rejects.toMatchObject({
        code: grpc.status.PERMISSION_DENIED,
      });
    } finally {
      identity.close();
    }
  });
});

describe('gRPC-Web client', () => {
  test('health and a signed tools call work over the gRPC-Web protocol', async () => {
    const sessions = new Http2SessionManager(platform.running.services.tools);
    try {
      const transport = createGrpcWebTransport({ baseUrl: platform.running.services.tools, httpVersion: '2', sessionManager: sessions });
      expect((await createClient(Health, transport).check({})).status).toBe(ServingStatus.SERVING);
      const headers = callHeaders(platform.signer, { workspaceId: workspace.id, principal: { type: 'internal', id: 'web', name: 'web' }, scopes: null, requestId: 'w' });
      const listed = await createClient(ToolsService, transport).listTools({}, { headers });
      expect(listed.tools.map((t) => t.name)).toContain('grpc_made');
    } finally {
      sessions.abort();
    }
  });
});
