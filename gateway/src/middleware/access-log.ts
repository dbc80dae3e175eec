// One structured log line per request, with its request id, route template, status and duration.
// The template, never the path: a path may carry a credential (the invitation link's token), and a
// query string almost anything.
import type { RequestHandler } from 'express';
import type { Logger } from '@voice/runtime/logger';
import { routeTemplateOf } from './route-template.js';

export const accessLog = (logger: Logger): RequestHandler => (req, res, next) => {
  const started = process.hrtime.bigint();
  res.once('finish', () => {
    logger.info('request', {
      request_id: res.locals.requestId,
      method: req.method,
      route: routeTemplateOf(res),
      status: res.statusCode,
      duration_ms: Number(process.hrtime.bigint() - started) / 1e6,
      workspace_id: (res.locals.auth as { workspace?: { id: string } } | undefined)?.workspace?.id,
    });
  });
  next();
};
