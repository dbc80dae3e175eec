// Verification codes: drawn uniformly, stored only as a keyed hash bound to their caller ID (so a
// copied hash is useless elsewhere and the table alone does not reveal them), compared in constant time.
import { createHmac, randomInt } from 'node:crypto';
import { constantTimeEqual } from '@voice/runtime/crypto';
import { verificationCodeLength } from '@voice/contracts/telephony';

export const newVerificationCode = (): string => String(randomInt(0, 10 ** verificationCodeLength)).padStart(verificationCodeLength, '0');

export class VerificationCodes {
  constructor(private readonly key: Buffer) {}

  hash(callerIdId: string, code: string): string {
    return createHmac('sha256', this.key).update(`${callerIdId}:${code}`).digest('hex');
  }

  matches(callerIdId: string, code: string, storedHash: string): boolean {
    return constantTimeEqual(this.hash(callerIdId, code), storedHash);
  }
}
