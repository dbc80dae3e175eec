// The handshake between the bench and its baseline server children: the body they answer with and the ready line they print.
export interface ReadyLine {
  ready: true;
  url: string;
}

export function announceReady(url: string): void {
  process.stdout.write(`${JSON.stringify({ ready: true, url } satisfies ReadyLine)}\n`);
}

/** The URL of a bench server's ready line, or undefined for any other line. */
export function readyUrlOfBenchServer(line: string): string | undefined {
  try {
    const parsed = JSON.parse(line) as Partial<ReadyLine>;
    return parsed.ready === true && typeof parsed.url === 'string' ? parsed.url : undefined;
  } catch {
    return undefined;
  }
}

/** The body every bench server answers with, handed over by the parent (the platform's real tool GET). */
export function responseBodyFromEnv(): unknown {
  const raw = process.env.BENCH_RESPONSE_BODY;
  if (!raw) throw new Error('BENCH_RESPONSE_BODY is not set');
  return JSON.parse(raw);
}
