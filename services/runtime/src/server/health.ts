// The standard gRPC health service (grpc.health.v1.Health), served by every service.
import { ConnectError, Code, type ConnectRouter } from '@connectrpc/connect';
import { create } from '@bufbuild/protobuf';
import {
  Health,
  HealthCheckResponseSchema,
  HealthCheckResponse_ServingStatus as ServingStatus,
  type HealthCheckResponse,
} from '@voice/proto/grpc/health/v1/health';

export { ServingStatus };

/** Statuses by service name; "" is the whole server. */
export class HealthRegistry {
  private readonly statuses = new Map<string, ServingStatus>();
  private readonly watchers = new Set<() => void>();
  private closed = false;

  /** Ends every Watch stream (after it has sent the last status), so shutdown need not wait for clients. */
  close(): void {
    this.closed = true;
    for (const notify of this.watchers) notify();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  set(service: string, status: ServingStatus): void {
    this.statuses.set(service, status);
    for (const notify of this.watchers) notify();
  }

  get(service: string): ServingStatus | undefined {
    return this.statuses.get(service);
  }

  entries(): [string, ServingStatus][] {
    return [...this.statuses.entries()];
  }

  /** Resolves on the next status change, or when the signal aborts. */
  changed(signal: AbortSignal): Promise<void> {
    if (signal.aborted || this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.watchers.delete(done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      this.watchers.add(done);
      signal.addEventListener('abort', done);
    });
  }
}

const response = (status: ServingStatus): HealthCheckResponse => create(HealthCheckResponseSchema, { status });

export function registerHealth(router: ConnectRouter, registry: HealthRegistry): void {
  router.service(Health, {
    check(request) {
      const status = registry.get(request.service);
      if (status === undefined) throw new ConnectError(`unknown service ${request.service}`, Code.NotFound);
      return response(status);
    },
    list() {
      return { statuses: Object.fromEntries(registry.entries().map(([name, status]) => [name, response(status)])) };
    },
    async *watch(request, context) {
      let last: ServingStatus | undefined;
      while (!context.signal.aborted) {
        const status = registry.get(request.service) ?? ServingStatus.SERVICE_UNKNOWN;
        if (status !== last) {
          last = status;
          yield response(status);
          // Read again: a change made while the reader held the last answer (a reader that pulls
          // lazily, as in process) has notified no one.
          continue;
        }
        if (registry.isClosed) return;
        await registry.changed(context.signal);
      }
    },
  });
}
