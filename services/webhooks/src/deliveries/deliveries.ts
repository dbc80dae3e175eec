// An endpoint's deliveries: the paginated log, a retry of one now, and the ping event a test sends.
import type { HandlerContext } from '@connectrpc/connect';
import { invalidRequest, notFound, serviceError } from '@voice/runtime/errors';
import { isUuid, newId } from '@voice/runtime/ids';
import { normalisePage } from '@voice/runtime/validation';
import { deliveryStatuses, pingEventType } from '@voice/contracts/webhooks';
import type { ListDeliveriesRequest, RetryDeliveryRequest } from '@voice/proto/voice/webhooks/v1/webhooks';
import type { Endpoints } from '../endpoints/endpoints.js';
import { deliveriesOf, eventRecord } from '../events/new-event.js';
import { presentDelivery } from '../presenter.js';
import type { DeliveryStatus, DeliveryStore } from '../store/store.js';

export interface DeliveriesDeps {
  store: DeliveryStore;
  endpoints: Endpoints;
  now: () => Date;
}

export class Deliveries {
  constructor(private readonly deps: DeliveriesDeps) {}

  /** Queues a ping to the endpoint (enabled or not asked): its delivery, pending. */
  async test(endpointId: string, context: HandlerContext) {
    const endpoint = await this.deps.endpoints.load(endpointId, context);
    if (!endpoint.enabled) throw serviceError('conflict', 'the endpoint is disabled: enable it before testing it');
    const at = this.deps.now();
    const event = eventRecord(endpoint.workspaceId, { id: newId(), type: pingEventType, created_at: at.toISOString(), data: { endpoint_id: endpoint.id } });
    const [delivery] = deliveriesOf(event, [endpoint], at);
    await this.deps.store.addEvent(event, [delivery!]);
    return { delivery: presentDelivery(delivery!) };
  }

  async list(request: ListDeliveriesRequest, context: HandlerContext) {
    const endpoint = await this.deps.endpoints.load(request.endpointId, context);
    if (request.status !== undefined && !(deliveryStatuses as readonly string[]).includes(request.status)) {
      throw invalidRequest([{ field: 'status', issue: `must be one of ${deliveryStatuses.join(', ')}` }]);
    }
    const { deliveries, total } = await this.deps.store.listDeliveries(
      endpoint.workspaceId,
      endpoint.id,
      { status: request.status as DeliveryStatus | undefined },
      normalisePage(request.page),
    );
    return { deliveries: deliveries.map(presentDelivery), total };
  }

  async retry(request: RetryDeliveryRequest, context: HandlerContext) {
    const endpoint = await this.deps.endpoints.load(request.endpointId, context);
    if (!isUuid(request.deliveryId)) throw notFound('delivery');
    if (!endpoint.enabled) throw serviceError('conflict', 'the endpoint is disabled: enable it before retrying its deliveries');
    const delivery = await this.deps.store.retryDelivery(endpoint.workspaceId, endpoint.id, request.deliveryId, this.deps.now().toISOString());
    if (!delivery) throw notFound('delivery');
    return { delivery: presentDelivery(delivery) };
  }
}
