// Every response carries X-Request-Id: the client's if it is sane, else a new one.
import type { RequestHandler } from 'express';
import { newId } from '@voice/runtime/ids';

const sane = /^[A-Za-z0-9._:-]{1,128}$/;

export const requestId = (): RequestHandler => (req, res, next) => {
  const sent = req.get('x-request-id');
  const id = sent && sane.test(sent) ? sent : newId();
  res.locals.requestId = id;
  res.setHeader('X-Request-Id', id);
  next();
};
