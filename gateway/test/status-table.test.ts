// The one table of HTTP statuses (reasons and Connect codes) and the error handler that turns
// every failure into the envelope, driven through a small express app.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { createConnectTransport, Http2SessionManager } from '@connectrpc/connect-node';
import { Health } from '@voice/proto/grpc/health/v1/health';
import { ErrorDetailSchema } from '@voice/proto/voice/common/v1/error';
import { errorReasons, invalidRequest, serviceError, type ErrorReason } from '@voice/runtime/errors';
import { createLogger } from '@voice/runtime/logger';
import { errorHandler } from '../src/errors/error-handler.js';
import { HttpError } from '../src/errors/http-error.js';
import { effectiveCode, mappingOfCode, publicCodeOfReason, statusOfReason } from '../src/errors/status-table.js';
import { requestId } from '../src/middleware/request-id.js';
import { routeTemplate } from '../src/middleware/route-template.js';

/** API.md's status for each public error reason. */
const apiStatuses: [ErrorReason, number][] = [
  ['invalid_request', 400],
  ['unauthorized', 401],
  ['forbidden', 403],
  ['not_found', 404],
  ['conflict', 409],
  ['revision_conflict', 409],
  ['rate_limited', 429],
  ['internal_error', 500],
  ['telephony_configuration_error', 409],
  ['destination_forbidden', 403],
  ['telephony_unavailable', 503],
  ['payload_too_large', 413],
];

const allCodes = Object.values(Code).filter((value): value is Code => typeof value === 'number');

describe('statusOfReason', () => {
  test('covers exactly the public error reasons', () => {
    expect(Object.keys(statusOfReason).sort()).toEqual([...errorReasons].sort());
    expect(apiStatuses.map(([reason]) => reason).sort()).toEqual([...errorReasons].sort());
  });

  test.each(apiStatuses)('%s is %i', (reason, status) => {
    expect(statusOfReason[reason]).toBe(status);
  });

  test('a payload too large is 413 with the envelope code invalid_request, as a body over 1 MiB is; every other reason is its own code', () => {
    expect(publicCodeOfReason('payload_too_large')).toBe('invalid_request');
    for (const reason of errorReasons.filter((r) => r !== 'payload_too_large')) expect(publicCodeOfReason(reason)).toBe(reason);
  });
});

describe('mappingOfCode', () => {
  test('covers every Connect code', () => {
    expect(allCodes).toHaveLength(16);
    for (const code of allCodes) expect(mappingOfCode[code]).toBeDefined();
  });

  test('never answers 401: a refused internal caller is the platform’s fault', () => {
    for (const code of allCodes) expect(mappingOfCode[code].status).not.toBe(401);
    expect(mappingOfCode[Code.Unauthenticated]).toMatchObject({ reason: 'internal_error', status: 500 });
  });

  test('every mapping agrees with the reason table, except the 503s', () => {
    for (const code of allCodes) {
      const { reason, status } = mappingOfCode[code];
      if (status !== 503) expect(status).toBe(statusOfReason[reason]);
    }
  });
});

const socketError = (code: string): Error => Object.assign(new Error(`connect ${code} 10.0.0.7:7101`), { code });

describe('effectiveCode', () => {
  test.each(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE'])(
    'a %s cause makes the error Unavailable',
    (code) => {
      expect(effectiveCode(new ConnectError('failed', Code.Internal, undefined, undefined, socketError(code)))).toBe(Code.Unavailable);
    },
  );

  test('any other error keeps its code', () => {
    expect(effectiveCode(new ConnectError('failed', Code.Internal))).toBe(Code.Internal);
    expect(effectiveCode(new ConnectError('failed', Code.Internal, undefined, undefined, socketError('SQLITE_BUSY')))).toBe(Code.Internal);
    expect(effectiveCode(new ConnectError('failed', Code.NotFound, undefined, undefined, 'ECONNREFUSED'))).toBe(Code.NotFound);
  });
});

describe('errorHandler', () => {
  const failures = new Map<string, unknown>();
  const logLines: string[] = [];
  let server: Server;
  let url: string;

  beforeAll(async () => {
    const app = express();
    app.use(requestId());
    app.use(routeTemplate());
    app.get('/fail/:name', (req, _res, next) => next(failures.get(req.params.name)));
    app.get('/throw-sync', () => {
      throw new Error('connection string mongodb://admin:hunter2@db');
    });
    app.get('/late', (_req, res, next) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('partial');
      next(new Error('failed after the headers'));
    });
    app.use(errorHandler(createLogger({ service: 'gateway-test', level: 'error', write: (line) => logLines.push(line) })));
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  });
  beforeEach(() => {
    failures.clear();
    logLines.length = 0;
  });

  interface Answer {
    status: number;
    headers: Headers;
    body: { error: { code: string; message: string; details?: { field: string; issue: string }[] } };
    text: string;
  }

  async function answerTo(error: unknown, requestIdHeader = 'req-status-test'): Promise<Answer> {
    failures.set('it', error);
    const response = await fetch(`${url}/fail/it`, { headers: { 'X-Request-Id': requestIdHeader } });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: JSON.parse(text) as Answer['body'], text };
  }

  describe('HttpError', () => {
    test.each(apiStatuses.filter(([reason]) => reason !== 'internal_error'))('%s answers %i with its message', async (reason, status) => {
      const answer = await answerTo(new HttpError(reason, `because of ${reason}`));
      expect(answer.status).toBe(status);
      expect(answer.body).toEqual({ error: { code: reason, message: `because of ${reason}` } });
    });

    test('an explicit status, details and headers are kept', async () => {
      const answer = await answerTo(
        new HttpError('invalid_request', 'method not allowed', { status: 405, details: [{ field: 'method', issue: 'is DELETE' }], headers: { Allow: 'GET' } }),
      );
      expect(answer.status).toBe(405);
      expect(answer.headers.get('allow')).toBe('GET');
      expect(answer.body).toEqual({ error: { code: 'invalid_request', message: 'method not allowed', details: [{ field: 'method', issue: 'is DELETE' }] } });
    });

    test('empty details are left out of the envelope', async () => {
      const answer = await answerTo(new HttpError('invalid_request', 'bad', { details: [] }));
      expect(answer.body.error).not.toHaveProperty('details');
    });

    test('internal_error says only the request id', async () => {
      const answer = await answerTo(new HttpError('internal_error', 'the disk is full'));
      expect(answer.status).toBe(500);
      expect(answer.body).toEqual({ error: { code: 'internal_error', message: 'internal error (request req-status-test)' } });
      expect(logLines).toHaveLength(1);
    });
  });

  describe('ConnectError carrying an ErrorDetail', () => {
    test.each(apiStatuses.filter(([reason]) => reason !== 'internal_error'))('%s becomes %i with the service message', async (reason, status) => {
      const answer = await answerTo(serviceError(reason, `service says ${reason}`));
      expect(answer.status).toBe(status);
      expect(answer.body).toEqual({ error: { code: publicCodeOfReason(reason), message: `service says ${reason}` } });
      expect(answer.headers.get('retry-after')).toBe(status === 503 ? '1' : null);
    });

    test('field violations become details', async () => {
      const answer = await answerTo(
        invalidRequest([
          { field: 'name', issue: 'is required' },
          { field: 'config.url', issue: 'must be https' },
        ]),
      );
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        error: {
          code: 'invalid_request',
          message: 'name: is required; config.url: must be https',
          details: [
            { field: 'name', issue: 'is required' },
            { field: 'config.url', issue: 'must be https' },
          ],
        },
      });
    });

    test('the reason decides, not the Connect code', async () => {
      const error = new ConnectError('carrier down', Code.Internal, undefined, [
        { desc: ErrorDetailSchema, value: { reason: 'telephony_unavailable', fieldViolations: [] } },
      ]);
      const answer = await answerTo(error);
      expect(answer.status).toBe(503);
      expect(answer.body.error).toEqual({ code: 'telephony_unavailable', message: 'carrier down' });
    });

    test('rate_limited with a retry delay is 429 with Retry-After; without one, no header', async () => {
      const limited = await answerTo(serviceError('rate_limited', 'too many codes; retry in 90 s', { retryAfterSeconds: 90 }));
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('90');
      expect(limited.body).toEqual({ error: { code: 'rate_limited', message: 'too many codes; retry in 90 s' } });
      const plain = await answerTo(serviceError('rate_limited', 'slow down'));
      expect(plain.status).toBe(429);
      expect(plain.headers.get('retry-after')).toBeNull();
    });

    test('a reason this gateway does not know falls back to the code', async () => {
      const error = new ConnectError('odd', Code.NotFound, undefined, [{ desc: ErrorDetailSchema, value: { reason: 'made_up', fieldViolations: [] } }]);
      const answer = await answerTo(error);
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe('not_found');
    });

    test('internal_error from a service says only the request id, and is logged with its cause', async () => {
      const answer = await answerTo(serviceError('internal_error', 'index corrupt at /data/tools.sqlite', { cause: new Error('SQLITE_CORRUPT') }), 'req-internal');
      expect(answer.status).toBe(500);
      expect(answer.body).toEqual({ error: { code: 'internal_error', message: 'internal error (request req-internal)' } });
      expect(answer.text).not.toContain('/data');
      expect(logLines).toHaveLength(1);
      expect(JSON.parse(logLines[0]!)).toMatchObject({ level: 'error', request_id: 'req-internal', route: '/fail/:name' });
    });
  });

  describe('ConnectError without a detail', () => {
    test('Unavailable is 503 with Retry-After and a safe message', async () => {
      const answer = await answerTo(new ConnectError('connect ECONNREFUSED 10.0.0.7:7101', Code.Unavailable));
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('1');
      expect(answer.body).toEqual({ error: { code: 'internal_error', message: 'a platform service is temporarily unavailable; retry shortly' } });
      expect(answer.text).not.toContain('10.0.0.7');
      expect(logLines).toHaveLength(1);
    });

    test('Internal caused by a refused connection is 503 too', async () => {
      const answer = await answerTo(new ConnectError('connect ECONNREFUSED', Code.Internal, undefined, undefined, socketError('ECONNREFUSED')));
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('1');
      expect(answer.body.error.code).toBe('internal_error');
    });

    test('a real call to a service that is not listening answers 503', async () => {
      // A port that was just free: nothing listens there now.
      const probe = createServer();
      await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
      const deadUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
      await new Promise<void>((resolve) => probe.close(() => resolve()));
      const sessions = new Http2SessionManager(deadUrl);
      try {
        const client = createClient(Health, createConnectTransport({ baseUrl: deadUrl, httpVersion: '2', sessionManager: sessions }));
        const failure = await client.check({ service: '' }).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(failure).toBeInstanceOf(ConnectError);
        const answer = await answerTo(failure);
        expect(answer.status).toBe(503);
        expect(answer.headers.get('retry-after')).toBe('1');
      } finally {
        sessions.abort();
      }
    });

    test.each([Code.DeadlineExceeded, Code.Canceled])('code %i is 503 as well', async (code) => {
      const answer = await answerTo(new ConnectError('timed out', code));
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('1');
    });

    test('Unauthenticated is a 500 internal_error, never 401', async () => {
      const answer = await answerTo(new ConnectError('the call carries no valid signed caller', Code.Unauthenticated), 'req-unauth');
      expect(answer.status).toBe(500);
      expect(answer.body).toEqual({ error: { code: 'internal_error', message: 'internal error (request req-unauth)' } });
      expect(answer.headers.get('www-authenticate')).toBeNull();
    });

    test.each([
      [Code.InvalidArgument, 400, 'invalid_request'],
      [Code.OutOfRange, 400, 'invalid_request'],
      [Code.NotFound, 404, 'not_found'],
      [Code.AlreadyExists, 409, 'conflict'],
      [Code.FailedPrecondition, 409, 'conflict'],
      [Code.Aborted, 409, 'conflict'],
      [Code.PermissionDenied, 403, 'forbidden'],
      [Code.ResourceExhausted, 429, 'rate_limited'],
    ])('code %i is %i %s with the service message', async (code, status, reason) => {
      const answer = await answerTo(new ConnectError('the service explains', code));
      expect(answer.status).toBe(status);
      expect(answer.body).toEqual({ error: { code: reason, message: 'the service explains' } });
      expect(answer.headers.get('retry-after')).toBeNull();
    });

    test.each([Code.Unknown, Code.Internal, Code.Unimplemented, Code.DataLoss])('code %i is a bare 500', async (code) => {
      const answer = await answerTo(new ConnectError('stack trace here', code), 'req-500');
      expect(answer.status).toBe(500);
      expect(answer.body).toEqual({ error: { code: 'internal_error', message: 'internal error (request req-500)' } });
    });
  });

  describe('anything else', () => {
    test('an unknown Error is 500 internal_error naming only the request id; the log has the text', async () => {
      const answer = await answerTo(new Error('password=hunter2 in /etc/voice.conf'), 'req-unknown');
      expect(answer.status).toBe(500);
      expect(answer.body).toEqual({ error: { code: 'internal_error', message: 'internal error (request req-unknown)' } });
      expect(answer.text).not.toContain('hunter2');
      expect(logLines).toHaveLength(1);
      expect(logLines[0]).toContain('hunter2');
    });

    test('a synchronous throw in a route is handled the same way', async () => {
      const response = await fetch(`${url}/throw-sync`);
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(text).not.toContain('hunter2');
      const id = response.headers.get('x-request-id');
      expect(JSON.parse(text)).toEqual({ error: { code: 'internal_error', message: `internal error (request ${id})` } });
    });

    test.each([['a string', 'oops'], ['a number', 42], ['an object without a type', { status: 400 }]])('%s thrown is 500', async (_label, thrown) => {
      const answer = await answerTo(thrown);
      expect(answer.status).toBe(500);
      expect(answer.body.error.code).toBe('internal_error');
    });

    test('a failure after the headers were sent ends the response without an envelope', async () => {
      const response = await fetch(`${url}/late`);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('partial');
      expect(logLines).toHaveLength(1);
    });
  });
});
