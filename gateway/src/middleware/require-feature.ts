// Plan gate: the workspace's plan must include the feature.
import type { RequestHandler } from 'express';
import { features, type Feature } from '@voice/runtime/access';
import { authOf, type AuthContext } from '../auth/auth-context.js';
import { HttpError } from '../errors/http-error.js';

/** The refusal when the workspace's plan lacks `feature`, else undefined. */
export function featureRefusal(auth: AuthContext, feature: Feature): HttpError | undefined {
  const workspace = auth.workspace;
  if (workspace.features.includes(feature)) return undefined;
  return new HttpError('forbidden', `the ${workspace.plan} plan does not include the ${feature} feature`);
}

export const requireFeature = (feature: Feature): RequestHandler => {
  if (!features.includes(feature)) throw new Error(`unknown feature ${feature}`);
  return (_req, res, next) => next(featureRefusal(authOf(res), feature));
};
