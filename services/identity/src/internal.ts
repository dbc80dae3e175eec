// Operations only other parts of the platform may call, never a public credential.
import type { HandlerContext } from '@connectrpc/connect';
import { internalCallerOf } from '@voice/runtime/caller';

export const requireInternal = (context: HandlerContext): void => void internalCallerOf(context);
