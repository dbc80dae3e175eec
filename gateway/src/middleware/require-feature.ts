// Plan gate: the workspace's plan must include the feature.
import type { RequestHandler } from 'express';
import { features, type Feature } from '@voice/runtime';
import { authOf } from '../auth/auth-context.js';
import { HttpError } from '../errors/http-error.js';

export const requireFeature = (feature: Feature): RequestHandler => {
  if (!features.includes(feature)) throw new Error(`unknown feature ${feature}`);
  return (_req, res, next) => {
    const workspace = authOf(res).workspace;
    if (workspace.features.includes(feature)) return next();
    next(new HttpError('forbidden', `the ${workspace.plan} plan does not include the ${feature} feature`));
  };
};
