// The messages of Twilio Media Streams a runtime receives (connected, start, media, mark, dtmf,
// stop), as far as the sandbox reads them.
import { z } from 'zod';

const startSchema = z.object({
  event: z.literal('start'),
  streamSid: z.string().min(1),
  start: z.object({
    callSid: z.string().min(1),
    customParameters: z.record(z.string(), z.string()).default({}),
  }),
});

const eventSchema = z.object({ event: z.string() });

export type StreamMessage =
  | { kind: 'start'; streamSid: string; callSid: string; customParameters: Record<string, string> }
  | { kind: 'stop' }
  /** connected, media, mark, dtmf: nothing the sandbox acts on. */
  | { kind: 'other' }
  | { kind: 'malformed' };

export function readStreamMessage(data: string): StreamMessage {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return { kind: 'malformed' };
  }
  const event = eventSchema.safeParse(json);
  if (!event.success) return { kind: 'malformed' };
  if (event.data.event === 'stop') return { kind: 'stop' };
  if (event.data.event !== 'start') return { kind: 'other' };
  const start = startSchema.safeParse(json);
  if (!start.success) return { kind: 'malformed' };
  return { kind: 'start', streamSid: start.data.streamSid, callSid: start.data.start.callSid, customParameters: start.data.start.customParameters };
}
