// A carrier's side of Twilio Media Streams for the runtime's tests: connects to the runtime's stream
// endpoint, sends `connected` and `start` with the call's parameters, then silence as `media`, and
// `stop` when the test hangs up; records how the runtime closed the stream.
import WebSocket from 'ws';

export interface CarrierStream {
  /** Resolves with the close code once the stream has closed (by either side). */
  closed: Promise<number>;
  hangUp(): void;
}

export async function openCarrierStream(url: string, customParameters: Record<string, string>, options: { sendStart?: boolean } = {}): Promise<CarrierStream> {
  const socket = new WebSocket(url);
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const streamSid = 'MZ00000000000000000000000000000001';
  const callSid = 'CA00000000000000000000000000000001';
  let sequenceNumber = 0;
  const send = (message: Record<string, unknown>) => {
    if (socket.readyState !== WebSocket.OPEN) return;
    socket.send(JSON.stringify(message.event === 'connected' ? message : { ...message, sequenceNumber: String((sequenceNumber += 1)), streamSid }));
  };
  send({ event: 'connected', protocol: 'Call', version: '1.0.0' });
  if (options.sendStart !== false) {
    send({
      event: 'start',
      start: { accountSid: 'ACtest', streamSid, callSid, tracks: ['inbound'], customParameters, mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 } },
    });
    send({ event: 'media', media: { track: 'inbound', chunk: '1', timestamp: '0', payload: Buffer.alloc(160, 0xff).toString('base64') } });
  }
  return {
    closed,
    hangUp: () => {
      send({ event: 'stop', stop: { accountSid: 'ACtest', callSid } });
      socket.close(1000);
    },
  };
}
