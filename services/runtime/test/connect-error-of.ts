// The ConnectError a call fails with; the test fails if the call succeeds or fails otherwise.
import { ConnectError } from '@connectrpc/connect';

export async function connectErrorOf(call: Promise<unknown>): Promise<ConnectError> {
  try {
    await call;
  } catch (error) {
    expect(error).toBeInstanceOf(ConnectError);
    return error as ConnectError;
  }
  throw new Error('expected the call to fail');
}
