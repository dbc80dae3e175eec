// The carrier's side of Twilio Media Streams, as the sandbox carrier plays it: a WebSocket to the
// voice runtime's stream endpoint carrying `connected`, `start` (with the leg's media parameters as
// customParameters), 20 ms frames of 8 kHz mu-law caller audio as `media`, and `stop` when the
// carrier hangs up. The runtime ends the call by closing the socket.
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';

/** 20 ms of 8 kHz mu-law audio. */
const frameBytes = 160;
const frameMs = 20;
/** Frames go out in batches, one timer tick per batch, rather than one timer tick per 20 ms. */
const framesPerTick = 5;
/** mu-law's zero level: the sandbox's caller is silent between the turns the runtime plays. */
const silence = Buffer.alloc(frameBytes, 0xff).toString('base64');

export type MediaStreamEnd =
  /** The runtime closed the stream: the conversation is over. */
  | { by: 'runtime' }
  /** The stream could not be opened or broke. */
  | { by: 'failure'; error: unknown }
  /** The carrier stopped it (stop()). */
  | { by: 'carrier' };

export interface MediaStreamOptions {
  url: string;
  accountSid: string;
  callSid: string;
  customParameters: Record<string, string>;
  /** Called once, however the stream ends. */
  onEnd: (end: MediaStreamEnd) => void;
  /** How long the runtime has to accept the connection; default 10 s. */
  connectTimeoutMs?: number;
}

export class MediaStream {
  readonly streamSid = `MZ${randomBytes(16).toString('hex')}`;
  private readonly socket: WebSocket;
  private sequenceNumber = 0;
  private chunk = 0;
  private startedMs = 0;
  private ticker: NodeJS.Timeout | undefined;
  private ended = false;

  constructor(private readonly options: MediaStreamOptions) {
    this.socket = new WebSocket(options.url, { handshakeTimeout: options.connectTimeoutMs ?? 10_000 });
    this.socket.on('open', () => this.opened());
    this.socket.on('error', (error) => this.end({ by: 'failure', error }));
    this.socket.on('close', () => this.end(this.ended ? { by: 'carrier' } : { by: 'runtime' }));
    // The runtime's own audio (media, mark, clear) has nobody to hear it in the sandbox.
    this.socket.on('message', () => undefined);
  }

  /** The carrier hangs up: `stop`, then the socket closes. */
  stop(): void {
    if (this.ended) return;
    this.finish();
    if (this.socket.readyState === WebSocket.OPEN) {
      this.send({ event: 'stop', stop: { accountSid: this.options.accountSid, callSid: this.options.callSid } });
      this.socket.close(1000, 'call ended');
    } else {
      this.socket.terminate();
    }
    this.options.onEnd({ by: 'carrier' });
  }

  private opened(): void {
    this.startedMs = Date.now();
    this.send({ event: 'connected', protocol: 'Call', version: '1.0.0' });
    this.send({
      event: 'start',
      start: {
        accountSid: this.options.accountSid,
        streamSid: this.streamSid,
        callSid: this.options.callSid,
        tracks: ['inbound'],
        customParameters: this.options.customParameters,
        mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
      },
    });
    this.ticker = setInterval(() => this.sendFrames(), frameMs * framesPerTick);
    this.ticker.unref();
  }

  private sendFrames(): void {
    for (let i = 0; i < framesPerTick; i++) {
      this.chunk += 1;
      const timestamp = String(Math.max(Date.now() - this.startedMs, (this.chunk - 1) * frameMs));
      this.send({ event: 'media', media: { track: 'inbound', chunk: String(this.chunk), timestamp, payload: silence } });
    }
  }

  private send(message: Record<string, unknown>): void {
    if (this.socket.readyState !== WebSocket.OPEN) return;
    // `connected` opens the stream before it has a sequence; `start` is its first message.
    const framed = message.event === 'connected' ? message : { ...message, sequenceNumber: String((this.sequenceNumber += 1)), streamSid: this.streamSid };
    this.socket.send(JSON.stringify(framed));
  }

  private end(end: MediaStreamEnd): void {
    if (this.ended) return;
    this.finish();
    if (end.by === 'failure') this.socket.terminate();
    this.options.onEnd(end);
  }

  private finish(): void {
    this.ended = true;
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = undefined;
  }
}
