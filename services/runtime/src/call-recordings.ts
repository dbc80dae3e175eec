// A call's recording as the calls service's CallSessionService.UploadRecording takes it, for every
// part that uploads one (the carrier's recording at telephony, a voice runtime's own): the first
// message names the session and the format, and no message carries more than the chunk limit.
import type { MessageInitShape } from '@bufbuild/protobuf';
import type { SessionRefSchema, UploadRecordingRequestSchema } from '@voice/proto/voice/calls/v1/call_sessions';

/** The largest chunk one UploadRecording message may carry. */
export const recordingChunkMaxBytes = 64 * 1024;

/** The messages that upload `bytes` (one empty chunk for an empty recording, so the session is still named). */
export async function* recordingUploadMessages(
  session: MessageInitShape<typeof SessionRefSchema>,
  contentType: string,
  bytes: Uint8Array,
): AsyncGenerator<MessageInitShape<typeof UploadRecordingRequestSchema>> {
  for (let offset = 0; offset < Math.max(bytes.length, 1); offset += recordingChunkMaxBytes) {
    const chunk = bytes.subarray(offset, offset + recordingChunkMaxBytes);
    yield offset === 0 ? { session, contentType, chunk } : { chunk };
  }
}
