// A client HTTP/2 request stream that is opened again when the server refuses it. A server that
// sends GOAWAY (its connection reached its maximum age, or it is shutting down) refuses the
// streams the client started before the GOAWAY reached it, with REFUSED_STREAM; RFC 9113 §8.7
// guarantees such a stream was never processed, so sending it again cannot run a call twice.
// connect-node fails those calls (Internal, "Stream closed with error code NGHTTP2_REFUSED_STREAM").
import http2 from 'node:http2';
import { Duplex } from 'node:stream';

const { NGHTTP2_CANCEL, NGHTTP2_NO_ERROR, NGHTTP2_REFUSED_STREAM } = http2.constants;

/**
 * A request refused this many times in a row fails with the last refusal. With short connection
 * ages and a stalled event loop, a new connection can itself reach its age before the request sent
 * again gets through (seen under heavy load with 100 ms ages); ten attempts ride out such stalls,
 * and a server that refuses everything still fails the call within a few round trips.
 */
const maxAttempts = 10;

/**
 * What connect-node uses of a ClientHttp2Stream (the Duplex, close(), rstCode and the `response`
 * and `trailers` events) over the stream of the current attempt. Request bytes are kept until the
 * server answers, then dropped: once the server has sent headers the stream was not refused. The
 * requests of the platform are single messages, so what is kept is one message at most.
 */
export class RefusedStreamRetry extends Duplex {
  /** The stream of the current attempt; undefined while the next one opens. */
  current: http2.ClientHttp2Stream | undefined;
  private attempts = 1;
  private written: Buffer[] = [];
  private answered = false;
  private requestEnded = false;
  private closeCode: number | undefined;
  private finalRstCode: number | undefined;

  constructor(
    first: http2.ClientHttp2Stream,
    private readonly open: () => Promise<http2.ClientHttp2Stream>,
  ) {
    super();
    this.attach(first);
  }

  /** The HTTP/2 code the stream closed with, as ClientHttp2Stream.rstCode. */
  get rstCode(): number | undefined {
    return this.finalRstCode;
  }

  /** Ends the call with an HTTP/2 code, as ClientHttp2Stream.close(). */
  close(code: number = NGHTTP2_NO_ERROR, callback?: () => void): void {
    if (this.closed || this.closeCode !== undefined) return;
    if (callback) this.once('close', callback);
    this.closeCode = code;
    // Without a current stream, the next attempt is closed as soon as it opens.
    if (this.current?.closed) this.destroy();
    else this.current?.close(code);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    const stream = this.current;
    if (this.answered && stream) {
      stream.write(chunk, callback);
      return;
    }
    // Kept for another attempt, so written as far as the caller is concerned; a failed write
    // closes the stream, which settles the call.
    this.written.push(chunk);
    stream?.write(chunk);
    callback();
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.requestEnded = true;
    this.current?.end();
    callback();
  }

  override _read(): void {
    this.current?.resume();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const stream = this.current;
    if (stream && !stream.closed && !stream.readableEnded) stream.close(NGHTTP2_CANCEL);
    callback(error);
  }

  private attach(stream: http2.ClientHttp2Stream): void {
    this.current = stream;
    let failure: Error | undefined;
    stream.on('response', (headers, flags) => {
      this.answered = true;
      this.written = [];
      this.emit('response', headers, flags);
    });
    stream.on('trailers', (trailers, flags) => this.emit('trailers', trailers, flags));
    stream.on('data', (chunk: Buffer) => {
      if (!this.push(chunk)) stream.pause();
    });
    stream.on('end', () => this.push(null));
    stream.on('error', (error) => (failure = error));
    stream.on('close', () => this.settle(stream, failure));
    for (const chunk of this.written) stream.write(chunk);
    if (this.requestEnded) stream.end();
    if (this.closeCode !== undefined) stream.close(this.closeCode);
  }

  private settle(stream: http2.ClientHttp2Stream, failure: Error | undefined): void {
    const refused = stream.rstCode === NGHTTP2_REFUSED_STREAM && !this.answered && this.closeCode === undefined;
    if (refused && this.attempts < maxAttempts && !this.destroyed) {
      this.attempts += 1;
      this.current = undefined;
      this.open().then(
        (next) => (this.destroyed ? next.close(NGHTTP2_CANCEL) : this.attach(next)),
        (error: unknown) => this.destroy(error instanceof Error ? error : new Error(String(error))),
      );
      return;
    }
    this.finalRstCode = stream.rstCode;
    if (failure) this.destroy(failure);
    // An answer that ended normally closes once the caller has read all of it; anything else
    // (CANCEL when the connection went away, say) closes now, and the caller sees the code.
    else if (this.answered && stream.rstCode === NGHTTP2_NO_ERROR && !this.readableEnded) this.once('end', () => this.destroy());
    else this.destroy();
  }
}
