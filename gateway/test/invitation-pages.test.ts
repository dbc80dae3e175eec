// The invitation pages' failures: an unknown invitation is the 404 page, a service briefly away is
// 503, and anything the page cannot explain is a 500 that says nothing but is logged.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Code, ConnectError } from '@connectrpc/connect';
import { CallerSigner } from '@voice/runtime/caller';
import { createLogger } from '@voice/runtime/logger';
import type { ServiceClients } from '../src/clients.js';
import { registerInvitationRoutes } from '../src/invitations/router.js';
import { requestId } from '../src/middleware/request-id.js';

let server: Server;
let url: string;
let failure: unknown;
const logLines: Record<string, unknown>[] = [];

beforeAll(async () => {
  const app = express();
  app.use(requestId());
  const platformUsers = { getInvitation: () => Promise.reject(failure) };
  registerInvitationRoutes(app, {
    clients: { platformUsers } as unknown as ServiceClients,
    signer: new CallerSigner(Buffer.alloc(32)),
    platformName: () => 'Voice platform',
    logger: createLogger({ service: 'gateway-test', level: 'info', write: (line) => logLines.push(JSON.parse(line) as Record<string, unknown>) }),
  });
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/invitations/${'a'.repeat(32)}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  logLines.length = 0;
});

test('an unknown invitation is the 404 page, not logged', async () => {
  failure = new ConnectError('no such invitation', Code.NotFound);
  const res = await fetch(url);
  expect(res.status).toBe(404);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(logLines.filter((line) => line.level === 'error')).toEqual([]);
});

test('a service briefly away is 503', async () => {
  failure = new ConnectError('unavailable', Code.Unavailable);
  expect((await fetch(url)).status).toBe(503);
});

test('an unexplained failure is a 500 page without detail, and is logged with the request id', async () => {
  failure = new Error('database password is hunter2');
  const res = await fetch(url);
  expect(res.status).toBe(500);
  expect(await res.text()).not.toContain('hunter2');
  const errors = logLines.filter((line) => line.level === 'error');
  expect(errors).toHaveLength(1);
  expect(errors[0]).toMatchObject({ request_id: res.headers.get('x-request-id') });
});
