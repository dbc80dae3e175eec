// One table from a carrier's failure to the public error: nothing was accepted, so nothing is
// charged, and the carrier's name and identifiers stay inside.
import type { ConnectError } from '@connectrpc/connect';
import { serviceError } from '@voice/runtime/errors';
import { CarrierRejected, CarrierUnavailable } from './carrier.js';

export function carrierFailure(error: unknown): ConnectError | undefined {
  if (error instanceof CarrierUnavailable) {
    return serviceError('telephony_unavailable', 'the carrier is unreachable or failing; nothing was charged, retry later', { cause: error });
  }
  if (error instanceof CarrierRejected) {
    switch (error.kind) {
      case 'authentication':
        return serviceError('telephony_configuration_error', "the carrier refused the connection's credentials", { cause: error });
      case 'destination':
        return serviceError('destination_forbidden', 'the carrier refuses to deliver to this destination', { cause: error });
      case 'request':
        return serviceError('telephony_configuration_error', 'the carrier refused the request for this number', { cause: error });
    }
  }
  return undefined;
}

/** Runs a carrier call, turning its failures into public errors. */
export async function withCarrier<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw carrierFailure(error) ?? error;
  }
}
