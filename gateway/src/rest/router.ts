// Serves the declared operations of the REST API: each gets authentication, rate limit, scope
// check, plan feature, (for writes) the JSON body rules and the validation of its query and body;
// a known path with another method answers 405.
import express, { type RequestHandler, type Router } from 'express';
import type { z } from 'zod';
import type { CallerSigner } from '@voice/runtime/caller';
import { authOf } from '../auth/auth-context.js';
import { callOptionsOf } from '../auth/signed-caller.js';
import { methodNotAllowed } from '../errors/http-error.js';
import { jsonBody } from '../middleware/json-body.js';
import { requireFeature } from '../middleware/require-feature.js';
import { requireScope } from '../middleware/require-scope.js';
import type { Method, Operation, PathParams } from './operation.js';
import { idempotencyKeyOf, noQuerySchema, parseBody, parseQuery } from './validate.js';

interface RouteOptions {
  /** Needed scope; omitted only for routes any credential may call (GET /me). */
  scope?: string;
  /** Extra gates such as requireFeature, run after the scope check. */
  gates?: RequestHandler[];
}

/** An async handler; a rejection reaches the error handler. */
type Handler = (req: express.Request, res: express.Response) => Promise<void>;

export class RestRouter {
  readonly router: Router = express.Router();
  private readonly methodsByPath = new Map<string, Set<string>>();
  private readonly declared: Operation<any, any>[] = [];

  constructor(
    private readonly authenticated: RequestHandler[],
    private readonly signer: CallerSigner,
  ) {}

  /** Serves an operation: authentication, rate limit, scope, plan feature, body rules, validation. */
  operation<Q, B, P extends string, R extends z.ZodType>(op: Operation<Q, B, P, R>): this {
    this.declared.push(op);
    const gates = op.feature ? [requireFeature(op.feature)] : [];
    return this.route(op.method, op.path, { scope: op.scope, gates }, async (req, res) => {
      const idempotencyKey = op.idempotent ? idempotencyKeyOf(req) : '';
      const auth = authOf(res);
      const requestId = String(res.locals.requestId);
      const reply = await op.handle({
        // Express matched the path, so every parameter it names is there.
        params: Object.fromEntries(Object.entries(req.params).map(([name, value]) => [name, String(value)])) as Record<PathParams<P>, string>,
        // An operation without query parameters refuses any, like any other unknown field (400).
        query: (op.query ? parseQuery(op.query, req) : void parseQuery(noQuerySchema, req)) as Q,
        body: (op.body ? parseBody(op.body, req.body) : undefined) as B,
        idempotencyKey,
        auth,
        requestId,
        options: callOptionsOf(auth, requestId, this.signer),
      });
      for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
      res.status(reply.status ?? op.doc.status ?? 200).json(reply.body);
    });
  }

  /** Every operation served, in declaration order (the OpenAPI document and MCP tools read them). */
  operations(): readonly Operation<any, any>[] {
    return this.declared;
  }

  private route(method: Method, path: string, options: RouteOptions, handler: Handler): this {
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
