// What a message a service asks the outbox to send must be: a one-line subject and a bounded text.
import type { FieldIssue } from '@voice/runtime/errors';

export const messageIssues = (subject: string, text: string): FieldIssue[] => [
  ...(subject.trim() && !/[\r\n]/.test(subject) && subject.length <= 200 ? [] : [{ field: 'subject', issue: 'must be one line of 1 to 200 characters' }]),
  ...(text.trim() && text.length <= 20_000 ? [] : [{ field: 'text', issue: 'must be 1 to 20000 characters' }]),
];
