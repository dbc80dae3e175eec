// Where each service listens unless told otherwise, and how the others reach it: its variables
// (VOICE_<SERVICE>_HOST, _PORT and _URL) and its port, written once for every service.
import { readPort, readString, readUrl, type Env } from './env.js';

export const servicePorts = {
  identity: 50051,
  tools: 50052,
  telephony: 50053,
  billing: 50054,
  'platform-users': 50055,
  assistants: 50056,
  calls: 50057,
  webhooks: 50058,
  /** The webhooks delivery worker: only grpc.health.v1.Health answers here. */
  'webhooks-delivery': 50059,
  campaigns: 50062,
  /** The campaigns dialer: only grpc.health.v1.Health answers here. */
  'campaigns-dialer': 50063,
} as const;

export type ServiceName = keyof typeof servicePorts;

/** `platform-users` -> `VOICE_PLATFORM_USERS`. */
export const serviceVariablePrefix = (service: ServiceName): string => `VOICE_${service.toUpperCase().replace(/-/g, '_')}`;

/** The service's own listen address: VOICE_<SERVICE>_HOST (loopback unless set) and VOICE_<SERVICE>_PORT. */
export function readListenAddress(env: Env, service: ServiceName): { host: string; port: number } {
  const prefix = serviceVariablePrefix(service);
  return { host: readString(env, `${prefix}_HOST`, '127.0.0.1'), port: readPort(env, `${prefix}_PORT`, servicePorts[service]) };
}

/** Where another service answers: VOICE_<SERVICE>_URL (http or https), its loopback port unless set. */
export function readServiceUrl(env: Env, service: ServiceName): string {
  return readUrl(env, `${serviceVariablePrefix(service)}_URL`, `http://127.0.0.1:${servicePorts[service]}`, ['http:', 'https:'])!;
}

/** The listeners for media beside the Connect ports: their variables' prefix (`_HOST`, `_PORT`) and port. */
export const mediaListeners = {
  /** The calls service's media endpoint: the recording downloads the gateway streams (HTTP/1.1). */
  callsMedia: { prefix: 'VOICE_CALLS_MEDIA', port: 50061 },
  /** The sandbox voice runtime: the media streams carriers connect answered calls to (WebSocket). */
  sandboxRuntime: { prefix: 'VOICE_SANDBOX_RUNTIME', port: 50060 },
} as const;

/** Every service's and media listener's port variable set to 0 (a free port each), for a platform started beside others. */
export function freePortsEnv(): Record<string, string> {
  return Object.fromEntries([
    ...(Object.keys(servicePorts) as ServiceName[]).map((service) => [`${serviceVariablePrefix(service)}_PORT`, '0']),
    ...Object.values(mediaListeners).map((listener) => [`${listener.prefix}_PORT`, '0']),
  ]);
}

/** A media listener's own address: <PREFIX>_HOST (loopback unless set) and <PREFIX>_PORT. */
export function readMediaListenAddress(env: Env, listener: keyof typeof mediaListeners): { host: string; port: number } {
  const { prefix, port } = mediaListeners[listener];
  return { host: readString(env, `${prefix}_HOST`, '127.0.0.1'), port: readPort(env, `${prefix}_PORT`, port) };
}
