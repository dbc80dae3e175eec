// JSON bodies: at most maxBodyBytes, Content-Type application/json, and an object at the top.
import express, { type RequestHandler } from 'express';
import { HttpError } from '../errors/http-error.js';

/** The largest JSON body the API (REST and MCP) takes; `maxBodyText` says it to people. */
export const maxBodyBytes = 1024 * 1024;
export const maxBodyText = '1 MiB';

// Not strict: scalars parse, so the object check below can name the problem precisely.
const parseJson = express.json({ limit: maxBodyBytes, strict: false, type: () => true });

const hasBody = (headers: Record<string, string | string[] | undefined>): boolean =>
  headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0');

export const jsonBody = (): RequestHandler[] => [
  (req, _res, next) => {
    if (!hasBody(req.headers)) {
      req.body = {};
      return next();
    }
    if (!req.is('application/json')) {
      return next(new HttpError('invalid_request', 'the request body must be JSON with Content-Type: application/json'));
    }
    next();
  },
  (req, res, next) => (req.body === undefined ? parseJson(req, res, next) : next()),
  (req, _res, next) => {
    const body: unknown = req.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return next(new HttpError('invalid_request', 'the request body must be a JSON object', { details: [{ field: 'body', issue: 'must be a JSON object' }] }));
    }
    next();
  },
];
