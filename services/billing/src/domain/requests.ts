// Transfer, Authorize, Capture and Release requests, checked and reduced to what the store needs;
// a fingerprint tells a retry of the same request from another request under the same id.
import type { FieldIssue } from '@voice/runtime/errors';
import { isValidIdempotencyKey, requestFingerprint } from '@voice/runtime/idempotency';
import type { AuthorizeRequest, CaptureRequest, ReleaseRequest, TransferRequest } from '@voice/proto/voice/billing/v1/billing';
import { numberFromWire, readMovement, readNonNegative, type Units } from './amounts.js';
import { maxHoldSeconds } from './holds.js';
import { holdKindIssue } from './kinds.js';

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

/** A hold named by its workspace and the caller's id. */
export interface HoldKey {
  workspaceId: string;
  holdId: string;
}

export interface AuthorizeInput extends HoldKey {
  amount: Units;
  creditUnitsPerMinute: number;
  expiresInSeconds: number;
  kind: string;
  reference: string;
  description: string;
  fingerprint: string;
}

export interface CaptureInput extends HoldKey {
  amount: Units;
  description: string;
  fingerprint: string;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; issues: FieldIssue[] };

function textIssues(request: { reference?: string; description: string }): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if ((request.reference ?? '').length > maxReferenceLength) issues.push({ field: 'reference', issue: `must be at most ${maxReferenceLength} characters` });
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

function holdKeyIssues(request: { workspaceId: string; holdId: string }): FieldIssue[] {
  return [...requiredIssues({ workspace_id: request.workspaceId }), ...operationIdIssues('hold_id', request.holdId)];
}

export function readAuthorize(request: AuthorizeRequest): Checked<AuthorizeInput> {
  const issues = [...holdKeyIssues(request), ...textIssues(request)];
  const kindIssue = holdKindIssue(request.kind);
  if (kindIssue) issues.push({ field: 'kind', issue: kindIssue });
  const rate = numberFromWire(request.creditUnitsPerMinute);
  if (rate === undefined || rate < 0) issues.push({ field: 'credit_units_per_minute', issue: 'must be a non-negative number of credit sub-units' });
  if (!(request.expiresInSeconds >= 1 && request.expiresInSeconds <= maxHoldSeconds)) {
    issues.push({ field: 'expires_in_seconds', issue: `must be between 1 and ${maxHoldSeconds} (7 days)` });
  }
  const amount = readMovement(request.amount, 'amount');
  if (!amount.ok) issues.push(...amount.issues);
  if (!amount.ok || issues.length > 0) return { ok: false, issues };
  const hold = {
    workspaceId: request.workspaceId,
    amount: amount.units,
    creditUnitsPerMinute: rate!,
    expiresInSeconds: request.expiresInSeconds,
    kind: request.kind,
    reference: request.reference,
    description: request.description,
  };
  return { ok: true, value: { holdId: request.holdId, ...hold, fingerprint: requestFingerprint(hold) } };
}

export function readCapture(request: CaptureRequest): Checked<CaptureInput> {
  const issues = [...holdKeyIssues(request), ...textIssues(request)];
  const amount = readNonNegative(request.amount, 'amount');
  if (!amount.ok) issues.push(...amount.issues);
  if (!amount.ok || issues.length > 0) return { ok: false, issues };
  return { ok: true, value: captureInput(request.workspaceId, request.holdId, amount.units, request.description) };
}

/** A capture as the store takes it, from an RPC or a usage event alike: the same use is the same capture. */
export function captureInput(workspaceId: string, holdId: string, amount: Units, description: string): CaptureInput {
  return { workspaceId, holdId, amount, description, fingerprint: requestFingerprint({ amount, description }) };
}

export function readRelease(request: ReleaseRequest): Checked<HoldKey> {
  const issues = holdKeyIssues(request);
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, value: { workspaceId: request.workspaceId, holdId: request.holdId } };
}
