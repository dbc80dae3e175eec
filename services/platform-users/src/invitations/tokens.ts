// Invitation tokens: 32 random bytes in base64url travel in the e-mailed link; only their
// SHA-256 is stored, so a copy of the database invites nobody.
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '@voice/runtime/crypto';

const tokenPattern = /^[A-Za-z0-9_-]{43}$/;

export const newInvitationToken = (): string => randomBytes(32).toString('base64url');

export const invitationTokenHash = (token: string): string => sha256Hex(token);

/** True for text shaped like a token; anything else cannot name an invitation. */
export const looksLikeInvitationToken = (value: string): boolean => tokenPattern.test(value);
