// Declares REST routes in one place: each route gets authentication, rate limit, scope check
// and (for writes) the JSON body rules; a known path with another method answers 405.
import express, { type RequestHandler, type Router } from 'express';
import { methodNotAllowed } from '../errors/http-error.js';
import { jsonBody } from '../middleware/json-body.js';
import { requireScope } from '../middleware/require-scope.js';

type Method = 'get' | 'post' | 'patch' | 'delete';

export interface RouteOptions {
  /** Needed scope; omitted only for routes any credential may call (GET /me). */
  scope?: string;
  /** Extra gates such as requireFeature, run after the scope check. */
  gates?: RequestHandler[];
}

/** Wraps an async handler so a rejection reaches the error handler. */
export type Handler = (req: express.Request, res: express.Response) => Promise<void>;

export class RestRouter {
  readonly router: Router = express.Router();
  private readonly methodsByPath = new Map<string, Set<string>>();

  constructor(private readonly authenticated: RequestHandler[]) {}

  route(method: Method, path: string, options: RouteOptions, handler: Handler): this {
    const chain: RequestHandler[] = [...this.authenticated];
    if (options.scope) chain.push(requireScope(options.scope));
    chain.push(...(options.gates ?? []));
    if (method === 'post' || method === 'patch') chain.push(...jsonBody());
    chain.push((req, res, next) => handler(req, res).catch(next));
    this.router[method](path, ...chain);
    const methods = this.methodsByPath.get(path) ?? new Set<string>();
    methods.add(method.toUpperCase());
    if (method === 'get') methods.add('HEAD');
    this.methodsByPath.set(path, methods);
    return this;
  }

  /** Registers the 405 answers; call once, after every route. */
  finish(): Router {
    for (const [path, methods] of this.methodsByPath) {
      const allow = [...methods].join(', ');
      this.router.all(path, (_req, _res, next) => next(methodNotAllowed(allow)));
    }
    return this.router;
  }

  paths(): Map<string, Set<string>> {
    return this.methodsByPath;
  }
}
