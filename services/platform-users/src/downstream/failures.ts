// How a failed call to identity or billing comes out of this service: a decision the other
// service made (it carries a reason) passes through with its code and message; a service that
// could not be reached or did not answer in time is Unavailable, never an internal error.
import { Code, ConnectError } from '@connectrpc/connect';
import { errorDetailOf } from '@voice/runtime/errors';

export type Downstream = 'identity' | 'billing';

/** Codes that mean the call did not get a decision from the other service. */
const unreachable = new Set([Code.Unavailable, Code.DeadlineExceeded, Code.Canceled, Code.Aborted]);

export function downstreamFailure(service: Downstream, error: unknown): ConnectError {
  const failure = ConnectError.from(error);
  if (errorDetailOf(failure).reason) return failure;
  // A socket or HTTP/2 failure arrives as Internal or Unknown with the Node error as its cause;
  // an internal error the other service answered arrives without one.
  const transport = (failure.code === Code.Internal || failure.code === Code.Unknown) && failure.cause !== undefined;
  if (unreachable.has(failure.code) || transport) {
    return new ConnectError(`the ${service} service is unavailable; retry shortly`, Code.Unavailable, undefined, undefined, error);
  }
  return failure;
}

/** Runs one call to another service, failing as downstreamFailure says. */
export async function callDownstream<T>(service: Downstream, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw downstreamFailure(service, error);
  }
}

/** A field the other service must always answer with; its absence is a fault of that service. */
export function answered<T>(service: Downstream, value: T | undefined, what: string): T {
  if (value === undefined) throw new ConnectError(`the ${service} service answered without ${what}`, Code.Internal);
  return value;
}
