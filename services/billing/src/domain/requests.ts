// Transfer and Debit requests, checked and reduced to what the store needs; the fingerprint
// tells a retry of the same request from another request under the same id.
import { isValidIdempotencyKey, requestFingerprint, type FieldIssue } from '@voice/runtime';
import type { DebitRequest, TransferRequest } from '@voice/proto/voice/billing/v1/billing';
import { readMovement, type Units } from './amounts.js';
import { debitKindIssue, defaultDebitKind } from './kinds.js';

const maxReferenceLength = 255;
const maxDescriptionLength = 1000;

export interface TransferInput {
  transferId: string;
  fromWorkspaceId: string;
  toWorkspaceId: string;
  amount: Units;
  reference: string;
  description: string;
  fingerprint: string;
}

export interface DebitInput {
  debitId: string;
  workspaceId: string;
  amount: Units;
  kind: string;
  reference: string;
  description: string;
  fingerprint: string;
}

type Checked<T> = { ok: true; value: T } | { ok: false; issues: FieldIssue[] };

function textIssues(request: { reference: string; description: string }): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (request.reference.length > maxReferenceLength) issues.push({ field: 'reference', issue: `must be at most ${maxReferenceLength} characters` });
  if (request.description.length > maxDescriptionLength) issues.push({ field: 'description', issue: `must be at most ${maxDescriptionLength} characters` });
  return issues;
}

const operationIdIssues = (field: string, id: string): FieldIssue[] =>
  isValidIdempotencyKey(id) ? [] : [{ field, issue: 'must be 1 to 255 printable characters' }];

const requiredIssues = (fields: Record<string, string>): FieldIssue[] =>
  Object.entries(fields).flatMap(([field, value]) => (value ? [] : [{ field, issue: 'is required' }]));

export function readTransfer(request: TransferRequest): Checked<TransferInput> {
  const issues = [
    ...requiredIssues({ from_workspace_id: request.fromWorkspaceId, to_workspace_id: request.toWorkspaceId }),
    ...operationIdIssues('transfer_id', request.transferId),
    ...textIssues(request),
  ];
  if (request.fromWorkspaceId && request.fromWorkspaceId === request.toWorkspaceId) {
    issues.push({ field: 'to_workspace_id', issue: 'must differ from from_workspace_id' });
  }
  const amount = readMovement(request.amount, 'amount');
  if (!amount.ok) issues.push(...amount.issues);
  if (!amount.ok || issues.length > 0) return { ok: false, issues };
  const transfer = {
    fromWorkspaceId: request.fromWorkspaceId,
    toWorkspaceId: request.toWorkspaceId,
    amount: amount.units,
    reference: request.reference,
    description: request.description,
  };
  return { ok: true, value: { transferId: request.transferId, ...transfer, fingerprint: requestFingerprint(transfer) } };
}

export function readDebit(request: DebitRequest): Checked<DebitInput> {
  const kind = request.kind || defaultDebitKind;
  const issues = [
    ...requiredIssues({ workspace_id: request.workspaceId }),
    ...operationIdIssues('debit_id', request.debitId),
    ...textIssues(request),
  ];
  const kindIssue = debitKindIssue(kind);
  if (kindIssue) issues.push({ field: 'kind', issue: kindIssue });
  const amount = readMovement(request.amount, 'amount');
  if (!amount.ok) issues.push(...amount.issues);
  if (!amount.ok || issues.length > 0) return { ok: false, issues };
  const debit = { workspaceId: request.workspaceId, amount: amount.units, kind, reference: request.reference, description: request.description };
  return { ok: true, value: { debitId: request.debitId, ...debit, fingerprint: requestFingerprint(debit) } };
}
