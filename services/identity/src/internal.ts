// Operations only other parts of the platform may call, never a public credential.
import type { HandlerContext } from '@connectrpc/connect';
import { callerOf, serviceError } from '@voice/runtime';

export function requireInternal(context: HandlerContext): void {
  if (callerOf(context).principal.type !== 'internal') throw serviceError('forbidden', 'only platform services may call this');
}
