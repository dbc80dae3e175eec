// A call's recording as the calls service's CallSessionService.UploadRecording takes it, for every
// part that uploads one (the carrier's recording at telephony, a voice runtime's own): the first
// message names the session and the format, and no message carries more than the chunk limit.
import type { MessageInitShape } from '@bufbuild/protobuf';
import type { SessionRefSchema, UploadRecordingRequestSchema } from '@voice/proto/voice/calls/v1/call_sessions';

/** The largest chunk one UploadRecording message may carry. */
export const recordingChunkMaxBytes = 64 * 1024;

/**
 * The messages that upload the recording: its bytes whole, or its parts in order as they are made
 * (a recording need not be held whole to be sent); one empty chunk for an empty recording, so the
 * session is still named.
 */
export async function* recordingUploadMessages(
  session: MessageInitShape<typeof SessionRefSchema>,
  contentType: string,
  recording: Uint8Array | Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
): AsyncGenerator<MessageInitShape<typeof UploadRecordingRequestSchema>> {
  let first = true;
  for await (const part of recording instanceof Uint8Array ? [recording] : recording) {
    for (let offset = 0; offset < part.length; offset += recordingChunkMaxBytes) {
      const chunk = part.subarray(offset, offset + recordingChunkMaxBytes);
      yield first ? { session, contentType, chunk } : { chunk };
      first = false;
    }
  }
  if (first) yield { session, contentType, chunk: new Uint8Array() };
}
