import { recordingChunkMaxBytes, recordingUploadMessages } from '../src/call-recordings.js';

const session = { callId: 'c1', sessionToken: 'st_1' };

async function messagesOf(bytes: Uint8Array | Iterable<Uint8Array>) {
  const messages = [];
  for await (const message of recordingUploadMessages(session, 'audio/wav', bytes)) messages.push(message);
  return messages;
}

test('the recording goes in order, in chunks of at most the limit; only the first names the session and format', async () => {
  const bytes = Uint8Array.from({ length: 2 * recordingChunkMaxBytes + 10 }, (_, i) => i % 251);
  const messages = await messagesOf(bytes);
  expect(messages.map((message) => message.chunk!.length)).toEqual([recordingChunkMaxBytes, recordingChunkMaxBytes, 10]);
  expect(Buffer.concat(messages.map((message) => message.chunk!))).toEqual(Buffer.from(bytes));
  expect(messages[0]).toMatchObject({ session, contentType: 'audio/wav' });
  expect(messages.slice(1).every((message) => !('session' in message) && !('contentType' in message))).toBe(true);
});

test('an empty recording is one message that still names the session', async () => {
  expect(await messagesOf(new Uint8Array())).toEqual([{ session, contentType: 'audio/wav', chunk: new Uint8Array() }]);
});

test('a recording in parts goes as it comes, each part cut at the limit, the first message naming the session and format', async () => {
  const parts = [Uint8Array.of(1, 2), new Uint8Array(), Uint8Array.from({ length: recordingChunkMaxBytes + 3 }, (_, i) => i % 251)];
  const messages = await messagesOf(parts);
  expect(messages.map((message) => message.chunk!.length)).toEqual([2, recordingChunkMaxBytes, 3]);
  expect(Buffer.concat(messages.map((message) => message.chunk!))).toEqual(Buffer.concat(parts));
  expect(messages[0]).toMatchObject({ session, contentType: 'audio/wav' });
  expect(messages.slice(1).every((message) => !('session' in message))).toBe(true);
});

test('a recording of no parts, or of empty ones, is one message that still names the session', async () => {
  expect(await messagesOf([])).toEqual([{ session, contentType: 'audio/wav', chunk: new Uint8Array() }]);
  expect(await messagesOf([new Uint8Array()])).toEqual([{ session, contentType: 'audio/wav', chunk: new Uint8Array() }]);
});
