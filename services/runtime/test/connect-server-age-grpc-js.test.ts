// The maximum connection age of startConnectServer with a @grpc/grpc-js client, as a third-party
// gRPC caller would connect: it follows GOAWAY to new connections, and sends again on its own
// the calls the server refused because they crossed a GOAWAY.
import { setTimeout as sleep } from 'node:timers/promises';
import * as grpc from '@grpc/grpc-js';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { HealthCheckRequestSchema, HealthCheckResponseSchema, type HealthCheckResponse } from '@voice/proto/grpc/health/v1/health';
import { ServingStatus } from '../src/server/health.js';
import { startAgedServer, type AgedServer } from './aged-server.js';

/** grpc.health.v1.Health/Check through grpc-js, messages encoded with the generated schemas. */
const HealthClient = grpc.makeGenericClientConstructor(
  {
    Check: {
      path: '/grpc.health.v1.Health/Check',
      requestStream: false,
      responseStream: false,
      requestSerialize: (message: { service: string }) => Buffer.from(toBinary(HealthCheckRequestSchema, create(HealthCheckRequestSchema, message))),
      requestDeserialize: (bytes: Buffer) => fromBinary(HealthCheckRequestSchema, bytes),
      responseSerialize: (message: HealthCheckResponse) => Buffer.from(toBinary(HealthCheckResponseSchema, message)),
      responseDeserialize: (bytes: Buffer) => fromBinary(HealthCheckResponseSchema, bytes),
    },
  },
  'Health',
);

interface HealthStub extends grpc.Client {
  Check(request: { service: string }, callback: (error: grpc.ServiceError | null, response: HealthCheckResponse) => void): void;
}

let aged: AgedServer | undefined;
let client: HealthStub | undefined;

afterEach(async () => {
  client?.close();
  await aged?.close();
  client = undefined;
  aged = undefined;
});

function check(): Promise<HealthCheckResponse> {
  return new Promise((resolve, reject) => client!.Check({ service: '' }, (error, response) => (error ? reject(error) : resolve(response))));
}

/**
 * `callers` loops of Health/Check until `enough` says so (answers and connections, never a time, so
 * a busy machine only takes longer); the failures, as text. Gives up after a minute.
 */
async function checkUntil(callers: number, enough: (answered: number) => boolean): Promise<{ answered: number; failures: string[] }> {
  const giveUpAt = Date.now() + 60_000;
  let answered = 0;
  const failures: string[] = [];
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (!enough(answered)) {
        if (Date.now() > giveUpAt) throw new Error(`only ${answered} answers and ${aged?.connections()} connections after a minute`);
        try {
          expect((await check()).status).toBe(ServingStatus.SERVING);
          answered += 1;
        } catch (error) {
          failures.push(String(error));
        }
        if (callers === 1) await sleep(20);
      }
    }),
  );
  return { answered, failures };
}

async function start(maxAgeMs: number): Promise<AgedServer> {
  aged = await startAgedServer({ maxAgeMs, graceMs: 1000 });
  client = new HealthClient(`127.0.0.1:${aged.server.port}`, grpc.credentials.createInsecure()) as unknown as HealthStub;
  return aged;
}

test('a grpc-js caller making calls across connection ages is moved to new connections, and no call fails', async () => {
  const server = await start(1000);
  const { answered, failures } = await checkUntil(1, (count) => count > 10 && server.connections() >= 3);
  expect(failures).toEqual([]);
  expect(answered).toBeGreaterThan(10);
  expect(server.connections()).toBeGreaterThanOrEqual(3);
}, 90_000);

// grpc-js sends a refused call again once; on a loaded machine a 100 ms connection could age out before
// the call sent again reached it, and 300 ms still moves every caller to a new connection several times.
test('16 grpc-js callers on connections that last 300 ms: the calls that cross a GOAWAY are sent again', async () => {
  const server = await start(300);
  const { answered, failures } = await checkUntil(16, (count) => count > 100 && server.connections() >= 5);
  expect(failures).toEqual([]);
  expect(answered).toBeGreaterThan(100);
  expect(server.connections()).toBeGreaterThanOrEqual(5);
}, 90_000);
