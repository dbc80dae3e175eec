// A trivial Connect service on its own loopback HTTP/2 port: grpc.health.v1.Health whose Check answers SERVING.
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import { Health, HealthCheckResponse_ServingStatus as ServingStatus } from '@voice/proto/grpc/health/v1/health';

export async function startHealthService(): Promise<string> {
  const server = http2.createServer(
    connectNodeAdapter({
      routes: (router) => {
        router.service(Health, { check: () => ({ status: ServingStatus.SERVING }) });
      },
    }),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
