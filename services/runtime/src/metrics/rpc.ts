// Every RPC a Connect server handles, counted and timed by service, method and code, and logged
// as one structured line with the request id the caller sent (no bodies, no error messages).
import { Code, ConnectError, type Interceptor } from '@connectrpc/connect';
import { requestIdHeader } from '../caller.js';
import type { Logger } from '../logger.js';
import { counterIn, histogramIn, metricsRegistry, requestDurationBuckets, secondsSince, type MetricsRegistry } from './registry.js';

export interface RpcMetricsOptions {
  /** The `service` label: the service's name (`billing`, `platform-users`, …). */
  service: string;
  logger: Logger;
  registry?: MetricsRegistry;
}

/** Connect's name of each code (`not_found`, `deadline_exceeded`, …), as the Connect protocol writes it. */
const codeNames = new Map<number, string>(
  Object.values(Code)
    .filter((value): value is Code => typeof value === 'number')
    .map((code) => [code, Code[code].replace(/(?<!^)([A-Z])/g, '_$1').toLowerCase()]),
);

/** `ok`, or the Connect code name of the error a call ended with. */
export const rpcCodeOf = (error: unknown): string =>
  error === undefined ? 'ok' : (codeNames.get(ConnectError.from(error).code) ?? 'unknown');

/** Request ids are the gateway's (sane and short); another caller's is cut to this length for the log. */
const maxRequestIdLength = 128;

/**
 * Records `rpc_server_requests_total` and `rpc_server_request_duration_seconds` for each call and
 * logs it: `debug` when it succeeds, `warn` when it fails (an unexpected failure also gets the
 * caller check's `error` line with its cause). Install it first, so it sees every other
 * interceptor's refusals; a streaming call counts when its stream ends.
 */
export function rpcMetricsInterceptor(options: RpcMetricsOptions): Interceptor {
  const registry = options.registry ?? metricsRegistry;
  const requests = counterIn(registry, {
    name: 'rpc_server_requests_total',
    help: 'RPCs handled, by service, method (package.Service/Method) and code (ok or a Connect code name).',
    labelNames: ['service', 'method', 'code'] as const,
  });
  const durations = histogramIn(registry, {
    name: 'rpc_server_request_duration_seconds',
    help: 'Time to handle an RPC, by service, method and code.',
    labelNames: ['service', 'method', 'code'] as const,
    buckets: requestDurationBuckets,
  });
  return (next) => async (request) => {
    const started = process.hrtime.bigint();
    const method = `${request.service.typeName}/${request.method.name}`;
    const requestId = request.header.get(requestIdHeader)?.slice(0, maxRequestIdLength);
    const finish = (error: unknown) => {
      const seconds = secondsSince(started);
      const code = rpcCodeOf(error);
      const labels = { service: options.service, method, code };
      requests.inc(labels);
      durations.observe(labels, seconds);
      const fields = { request_id: requestId, method, code, duration_ms: seconds * 1000 };
      if (error === undefined) options.logger.debug('rpc', fields);
      else options.logger.warn('rpc failed', fields);
    };
    let response;
    try {
      response = await next(request);
    } catch (error) {
      finish(error);
      throw error;
    }
    if (!response.stream) {
      finish(undefined);
      return response;
    }
    // A handler may end its stream quietly when the call is aborted (health Watch does): the
    // call's signal tells an expired deadline or a peer that went away (whatever reset code its
    // client sent: connect-node's says INTERNAL_ERROR) from a stream that ran out.
    const aborted = () => {
      if (!request.signal.aborted) return undefined;
      const reason = ConnectError.from(request.signal.reason, Code.Canceled);
      return reason.code === Code.DeadlineExceeded ? reason : new ConnectError('the call was cancelled', Code.Canceled);
    };
    return { ...response, message: observeStream(response.message, (error) => finish(error ?? aborted())) };
  };
}

/** Passes a response stream through and reports how it ended: done, failed, or abandoned by its reader. */
async function* observeStream<T>(messages: AsyncIterable<T>, finish: (error: unknown) => void): AsyncIterable<T> {
  let outcome: { error: unknown } | undefined;
  try {
    yield* messages;
    outcome = { error: undefined };
  } catch (error) {
    outcome = { error };
    throw error;
  } finally {
    finish(outcome ? outcome.error : new ConnectError('the stream was abandoned before its end', Code.Canceled));
  }
}
