// The template of the route that served a request (`/api/v1/tools/:id`), for logs and metrics:
// the path itself would put every id into a label. Recorded when the router matches a route,
// since a sub-router's mount path (req.baseUrl) is gone again once an error leaves it.
import type { Request, RequestHandler, Response } from 'express';

/** What routeTemplateOf answers for a request no route matched (404s of unknown paths, early refusals). */
export const unmatchedRoute = 'unmatched';

const templateKey = 'routeTemplate';
const matchedRoute = Symbol('matchedRoute');

type RecordingRequest = Request & { [matchedRoute]?: unknown };

/** The prototypes that already carry the recording `route` accessor (express's app.request, once per app). */
const recording = new WeakSet<object>();

/**
 * Express's router sets `req.route` on each route it matches, with `req.baseUrl` holding the
 * mount path of the router the route belongs to at that moment: an accessor catches the
 * assignment and keeps the two joined. It sits on the app's request prototype, defined once: an
 * accessor defined on each request object turned every request into a slow (dictionary-mode)
 * object in V8, and express and every middleware read many properties of it.
 */
function recordRoutesOf(prototype: object): void {
  Object.defineProperty(prototype, 'route', {
    configurable: true,
    enumerable: true,
    get(this: RecordingRequest) {
      return this[matchedRoute];
    },
    set(this: RecordingRequest, value: unknown) {
      this[matchedRoute] = value;
      const path = (value as { path?: unknown } | undefined)?.path;
      if (typeof path === 'string' && this.res) this.res.locals[templateKey] = `${this.baseUrl}${path}`;
    },
  });
  recording.add(prototype);
}

/** Install first (express gives each request its app's prototype before any middleware runs). */
export const routeTemplate = (): RequestHandler => (req, _res, next) => {
  const prototype = Object.getPrototypeOf(req) as object;
  if (!recording.has(prototype)) recordRoutesOf(prototype);
  next();
};

/** The template of the last route that matched the request, or `unmatched`. */
export const routeTemplateOf = (res: Response): string => (res.locals[templateKey] as string | undefined) ?? unmatchedRoute;
