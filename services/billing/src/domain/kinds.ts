// Ledger entry kinds and what they count as.

export const transferOutKind = 'transfer_out';
export const transferInKind = 'transfer_in';

/** What made an entry: a use of the platform (a captured hold, or a usage event without one) or a Transfer. */
export type EntryCategory = 'usage' | 'transfer';

/**
 * The categories the usage summary counts as consumption. Transfers only move credits between
 * wallets; usage pays for something the workspace used.
 */
export const consumptionCategories: readonly EntryCategory[] = ['usage'];

const kindPattern = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/;
const maxKindLength = 64;

/**
 * Why a usage event's kind cannot be recorded. Usage already happened, so only a kind that
 * would be mistaken for another entry is refused; the format is the producer's to keep.
 */
export function usageKindIssue(kind: string): string | undefined {
  if (kind.length === 0) return 'is required';
  if (kind === transferInKind || kind === transferOutKind) return 'is reserved for transfers';
  return undefined;
}

/** Why a hold's kind is refused; the caller can correct it, so it must also be well formed (e.g. "number.monthly"). */
export function holdKindIssue(kind: string): string | undefined {
  const issue = usageKindIssue(kind);
  if (issue) return issue;
  if (kind.length > maxKindLength || !kindPattern.test(kind)) {
    return `must be lower-case words joined by dots (e.g. sms.outbound), at most ${maxKindLength} characters`;
  }
  return undefined;
}
