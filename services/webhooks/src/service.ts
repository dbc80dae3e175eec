// The WebhooksService: only delegates to its areas (endpoints, deliveries, settings).
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import type { SecretBox } from '@voice/runtime/crypto';
import { monotonicClock } from '@voice/runtime/time';
import type {
  CreateEndpointRequest,
  ListDeliveriesRequest,
  ListEndpointsRequest,
  RetryDeliveryRequest,
  UpdateEndpointRequest,
  UpdateSettingsRequest,
  WebhooksService,
} from '@voice/proto/voice/webhooks/v1/webhooks';
import { Deliveries } from './deliveries/deliveries.js';
import { EndpointUrlRule } from './domain/endpoint-url.js';
import { Endpoints } from './endpoints/endpoints.js';
import { EndpointSecrets } from './endpoints/secrets.js';
import { WebhookSettings } from './settings/settings.js';
import type { WebhooksStore } from './store/store.js';

export interface WebhooksDeps {
  store: WebhooksStore;
  box: SecretBox;
  /** VOICE_EGRESS_ALLOW_PRIVATE: endpoints may be private or plain-http addresses. */
  allowPrivate: boolean;
  now?: () => Date;
}

export class WebhooksServiceImpl implements ServiceImpl<typeof WebhooksService> {
  private readonly endpoints: Endpoints;
  private readonly deliveries: Deliveries;
  private readonly settings: WebhookSettings;

  constructor(deps: WebhooksDeps) {
    const now = deps.now ?? monotonicClock();
    this.endpoints = new Endpoints({ store: deps.store, secrets: new EndpointSecrets(deps.box), urls: new EndpointUrlRule(deps.allowPrivate), now });
    this.deliveries = new Deliveries({ store: deps.store, endpoints: this.endpoints, now });
    this.settings = new WebhookSettings(deps.store);
  }

  createEndpoint = (request: CreateEndpointRequest, context: HandlerContext) => this.endpoints.create(request, context);
  getEndpoint = (request: { id: string }, context: HandlerContext) => this.endpoints.get(request.id, context);
  listEndpoints = (request: ListEndpointsRequest, context: HandlerContext) => this.endpoints.list(request, context);
  updateEndpoint = (request: UpdateEndpointRequest, context: HandlerContext) => this.endpoints.update(request, context);
  deleteEndpoint = (request: { id: string }, context: HandlerContext) => this.endpoints.delete(request.id, context);
  rotateSecret = (request: { id: string }, context: HandlerContext) => this.endpoints.rotateSecret(request.id, context);
  testEndpoint = (request: { id: string }, context: HandlerContext) => this.deliveries.test(request.id, context);
  listDeliveries = (request: ListDeliveriesRequest, context: HandlerContext) => this.deliveries.list(request, context);
  retryDelivery = (request: RetryDeliveryRequest, context: HandlerContext) => this.deliveries.retry(request, context);
  getSettings = (_request: unknown, context: HandlerContext) => this.settings.get(context);
  updateSettings = (request: UpdateSettingsRequest, context: HandlerContext) => this.settings.update(request, context);
}
