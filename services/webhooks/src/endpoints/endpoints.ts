// Endpoints of a workspace: created with a secret shown once, read, changed, deleted, and their
// secret rotated. Every URL passes the endpoint-URL rule; the workspace is the signed caller's.
import type { HandlerContext } from '@connectrpc/connect';
import { workspaceCallerOf } from '@voice/runtime/caller';
import { invalidRequest, notFound } from '@voice/runtime/errors';
import { isUuid, newId } from '@voice/runtime/ids';
import { definedFields, normalisePage, validate } from '@voice/runtime/validation';
import { createWebhookBodySchema, updateWebhookBodySchema } from '@voice/contracts/webhooks';
import type { CreateEndpointRequest, ListEndpointsRequest, UpdateEndpointRequest } from '@voice/proto/voice/webhooks/v1/webhooks';
import type { EndpointUrlRule } from '../domain/endpoint-url.js';
import { presentEndpoint } from '../presenter.js';
import type { EndpointRecord, EndpointStore } from '../store/store.js';
import type { EndpointSecrets } from './secrets.js';

export interface EndpointsDeps {
  store: EndpointStore;
  secrets: EndpointSecrets;
  urls: EndpointUrlRule;
  now: () => Date;
}

export class Endpoints {
  constructor(private readonly deps: EndpointsDeps) {}

  async create(request: CreateEndpointRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const input = validate(
      createWebhookBodySchema,
      definedFields({ url: request.url, description: request.description || undefined, event_types: request.eventTypes, enabled: request.enabled }),
    );
    if (!input.ok) throw invalidRequest(input.issues);
    await this.checkUrl(input.value.url);
    const at = this.deps.now();
    const { secret, stored } = this.deps.secrets.create();
    const record: EndpointRecord = {
      id: newId(),
      workspaceId: caller.workspaceId,
      url: input.value.url,
      description: input.value.description ?? '',
      eventTypes: input.value.event_types,
      enabled: input.value.enabled ?? true,
      secrets: [stored],
      failingSince: null,
      disabledReason: null,
      createdAt: at.toISOString(),
      updatedAt: at.toISOString(),
    };
    await this.deps.store.createEndpoint(record);
    return { endpoint: presentEndpoint(record, at), secret };
  }

  async get(id: string, context: HandlerContext) {
    return { endpoint: presentEndpoint(await this.load(id, context), this.deps.now()) };
  }

  async list(request: ListEndpointsRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const { endpoints, total } = await this.deps.store.listEndpoints(caller.workspaceId, normalisePage(request.page));
    const now = this.deps.now();
    return { endpoints: endpoints.map((endpoint) => presentEndpoint(endpoint, now)), total };
  }

  async update(request: UpdateEndpointRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const input = validate(
      updateWebhookBodySchema,
      definedFields({
        url: request.url,
        description: request.description,
        event_types: request.hasEventTypes ? request.eventTypes : undefined,
        enabled: request.enabled,
      }),
    );
    if (!input.ok) throw invalidRequest(input.issues);
    const current = await this.load(request.id, context);
    if (input.value.url !== undefined) await this.checkUrl(input.value.url);
    const at = this.deps.now();
    const updated = await this.deps.store.updateEndpoint(
      caller.workspaceId,
      current.id,
      { url: input.value.url, description: input.value.description, eventTypes: input.value.event_types, enabled: input.value.enabled },
      at.toISOString(),
    );
    if (!updated) throw notFound('webhook endpoint');
    return { endpoint: presentEndpoint(updated, at) };
  }

  async delete(id: string, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    if (!isUuid(id) || !(await this.deps.store.deleteEndpoint(caller.workspaceId, id))) throw notFound('webhook endpoint');
    return {};
  }

  async rotateSecret(id: string, context: HandlerContext) {
    const current = await this.load(id, context);
    const at = this.deps.now();
    const { secret, secrets } = this.deps.secrets.rotate(current.secrets, at);
    const updated = await this.deps.store.updateEndpoint(current.workspaceId, current.id, { secrets }, at.toISOString());
    if (!updated) throw notFound('webhook endpoint');
    return { endpoint: presentEndpoint(updated, at), secret };
  }

  /** The caller's endpoint, or NotFound (also for an id that is not a UUID). */
  async load(id: string, context: HandlerContext): Promise<EndpointRecord> {
    const caller = workspaceCallerOf(context);
    const endpoint = isUuid(id) ? await this.deps.store.getEndpoint(caller.workspaceId, id) : undefined;
    if (!endpoint) throw notFound('webhook endpoint');
    return endpoint;
  }

  private async checkUrl(url: string): Promise<void> {
    const issue = await this.deps.urls.issue(url);
    if (issue) throw invalidRequest([issue]);
  }
}
