// GET /api/v1/openapi.json: the document, public (no credential), built once per public address
// (a white-label tenant's domain gets its own servers and name) and cacheable for five minutes.
import type { Express } from 'express';
import { methodNotAllowed } from '../errors/http-error.js';
import type { RestRouter } from '../rest/router.js';
import { apiPrefix, openApiDocument } from './document.js';

export const openApiPath = `${apiPrefix}/openapi.json`;

/** Distinct public addresses are few (the platform's and its tenants' domains); this only bounds a surprise. */
const maxCached = 1000;

export function registerOpenApiRoute(app: Express, rest: RestRouter, options: { publicUrl: () => string; platformName: () => string }): void {
  const documents = new Map<string, string>();
  app.get(openApiPath, (_req, res) => {
    const publicUrl = options.publicUrl();
    const platformName = options.platformName();
    const key = `${publicUrl} ${platformName}`;
    let json = documents.get(key);
    if (json === undefined) {
      json = JSON.stringify(openApiDocument(rest.operations(), { publicUrl, platformName }));
      if (documents.size >= maxCached) documents.clear();
      documents.set(key, json);
    }
    res.setHeader('Cache-Control', 'public, max-age=300');
    // A public document: any origin's tooling (editors, code generators) may read it.
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.type('application/json').send(json);
  });
  app.all(openApiPath, (_req, _res, next) => next(methodNotAllowed('GET, HEAD')));
}

/** Where the gateway app keeps its REST router, so tests can read the route table it serves. */
const restRouterKey = 'restRouter';

export const keepRestRouter = (app: Express, rest: RestRouter): void => {
  app.locals[restRouterKey] = rest;
};

/** The REST router an app built by buildGatewayApp serves under /api/v1. */
export function restRouterOf(app: Express): RestRouter {
  const rest: unknown = app.locals[restRouterKey];
  if (!rest) throw new Error('this app has no REST router');
  return rest as RestRouter;
}
