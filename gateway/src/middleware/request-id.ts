// Every response carries X-Request-Id: the client's if it is sane, else a new one.
import type { RequestHandler } from 'express';
import { newId } from '@voice/runtime/ids';

const maxLength = 128;
const characters = 'A-Za-z0-9._:-';
const sane = new RegExp(`^[${characters}]{1,${maxLength}}$`);

/** Which client request ids are kept, as the document says it. */
export const saneRequestIdText = `1 to ${maxLength} characters of \`${characters}\``;

export const requestId = (): RequestHandler => (req, res, next) => {
  const sent = req.get('x-request-id');
  const id = sent && sane.test(sent) ? sent : newId();
  res.locals.requestId = id;
  res.setHeader('X-Request-Id', id);
  next();
};
