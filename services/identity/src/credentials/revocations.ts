// The one way revocations are announced: CredentialsRevoked on the bus, after the revoking
// transaction committed and before the revoking call returns.
import { create, toBinary } from '@bufbuild/protobuf';
import { credentialsRevokedSubject, type Notifier } from '@voice/runtime/nats';
import { CredentialsRevokedSchema } from '@voice/proto/voice/identity/v1/identity';

export async function announceRevoked(notifier: Notifier, notice: { credentialIds: string[]; workspaceId?: string }): Promise<void> {
  if (notice.credentialIds.length === 0 && !notice.workspaceId) return;
  const message = create(CredentialsRevokedSchema, { credentialIds: notice.credentialIds, workspaceId: notice.workspaceId ?? '' });
  await notifier.publish(credentialsRevokedSubject, toBinary(CredentialsRevokedSchema, message));
}
