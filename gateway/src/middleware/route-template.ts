// The template of the route that served a request (`/api/v1/tools/:id`), for logs and metrics:
// the path itself would put every id into a label. Recorded when the router matches a route,
// since a sub-router's mount path (req.baseUrl) is gone again once an error leaves it.
import type { RequestHandler, Response } from 'express';

/** What routeTemplateOf answers for a request no route matched (404s of unknown paths, early refusals). */
export const unmatchedRoute = 'unmatched';

const templateKey = 'routeTemplate';

/**
 * Install first. Express's router sets `req.route` on each route it matches, with `req.baseUrl`
 * holding the mount path of the router the route belongs to at that moment: this catches the
 * assignment and keeps the two joined.
 */
export const routeTemplate = (): RequestHandler => (req, res, next) => {
  let route: unknown;
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => route,
    set: (value: unknown) => {
      route = value;
      const path = (value as { path?: unknown } | undefined)?.path;
      if (typeof path === 'string') res.locals[templateKey] = `${req.baseUrl}${path}`;
    },
  });
  next();
};

/** The template of the last route that matched the request, or `unmatched`. */
export const routeTemplateOf = (res: Response): string => (res.locals[templateKey] as string | undefined) ?? unmatchedRoute;
