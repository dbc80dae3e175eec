// The services running in this process, callable without a socket (the single-process mode).
// Each service registers the very handlers its HTTP/2 server serves, so an in-process call passes
// the same interceptors (signed caller, metrics, logs, error masking) and the same Connect
// protocol (binary messages, deadlines, headers, error details); only HTTP/2 is left out. A
// transport looks the service up on every call: a stopped service is unavailable, a restarted
// one is reached again.
import { Code, ConnectError, type Transport } from '@connectrpc/connect';
import { createUniversalHandlerClient, type UniversalClientFn, type UniversalClientRequest, type UniversalHandler } from '@connectrpc/connect/protocol';
import { createTransport } from '@connectrpc/connect/protocol-connect';

/** connect-node's own limits on an HTTP/2 transport (~4 GiB), so both transports accept the same messages. */
const maxMessageBytes = 0xffffffff;

/** How long a withdrawn service waits for its calls in flight, as its HTTP/2 server waits for streams. */
const drainMs = 5_000;

export interface InProcessRegistration {
  /** New calls fail as unavailable at once; resolves when the calls in flight have settled (or after 5 s). */
  withdraw(): Promise<void>;
}

class LocalService {
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly client: UniversalClientFn;

  constructor(handlers: readonly UniversalHandler[]) {
    this.client = createUniversalHandlerClient([...handlers]);
  }

  call(request: UniversalClientRequest): ReturnType<UniversalClientFn> {
    const answer = this.client(request);
    this.inFlight.add(answer);
    const settled = () => this.inFlight.delete(answer);
    answer.then(settled, settled);
    return answer;
  }

  async drain(): Promise<void> {
    if (this.inFlight.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, drainMs).unref()));
    await Promise.race([Promise.allSettled([...this.inFlight]), late]);
    clearTimeout(timer);
  }
}

export class InProcessServices {
  private readonly running = new Map<string, LocalService>();

  /** Makes `name` callable in this process through `handlers` (its router's, interceptors included). */
  register(name: string, handlers: readonly UniversalHandler[]): InProcessRegistration {
    if (this.running.has(name)) throw new Error(`service ${name} is already running in this process`);
    const service = new LocalService(handlers);
    this.running.set(name, service);
    return {
      withdraw: async () => {
        if (this.running.get(name) === service) this.running.delete(name);
        await service.drain();
      },
    };
  }

  /**
   * A Connect transport to `name` (binary Connect protocol, like the HTTP/2 clients). A call while
   * the service is not running fails with Unavailable, as a refused connection does over HTTP/2.
   */
  transport(name: string, options: { defaultTimeoutMs?: number } = {}): Transport {
    const httpClient: UniversalClientFn = async (request) => {
      const service = this.running.get(name);
      if (!service) throw new ConnectError(`the ${name} service is not running`, Code.Unavailable);
      return service.call(request);
    };
    return createTransport({
      httpClient,
      baseUrl: `http://${name}.in-process`,
      useBinaryFormat: true,
      interceptors: [],
      // Nothing to save on a hop without a wire.
      acceptCompression: [],
      sendCompression: null,
      compressMinBytes: maxMessageBytes,
      readMaxBytes: maxMessageBytes,
      writeMaxBytes: maxMessageBytes,
      defaultTimeoutMs: options.defaultTimeoutMs,
    });
  }
}
