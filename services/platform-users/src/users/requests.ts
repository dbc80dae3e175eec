// The checks of PlatformUserService requests, each refusing with every issue at once and the
// field names of the public API.
import { isPlan, type Plan } from '@voice/runtime/access';
import { emailIssue, nameIssue, normaliseEmail, passwordIssue } from '@voice/runtime/accounts';
import { creditScale } from '@voice/runtime/amounts';
import { invalidRequest, type FieldIssue } from '@voice/runtime/errors';
import { normalisePage, type Page } from '@voice/runtime/validation';
import type {
  ListPlatformUsersRequest,
  RegisterPlatformUserRequest,
  SetPlatformUserStatusRequest,
  TransferPlatformCreditsRequest,
} from '@voice/proto/voice/platform/v1/platform_users';
import { maxTransferCredits } from '@voice/contracts/platform-users';

const maxQueryLength = 200;
const maxDescriptionLength = 500;
const maxTransferUnits = BigInt(maxTransferCredits) * BigInt(creditScale);

export const defaultCustomerPlan: Plan = 'starter';

function refuseAny(issues: FieldIssue[]): void {
  if (issues.length > 0) throw invalidRequest(issues);
}

export function readListRequest(request: ListPlatformUsersRequest): { query: string; page: Page } {
  refuseAny(request.query.length > maxQueryLength ? [{ field: 'q', issue: `must be at most ${maxQueryLength} characters` }] : []);
  return { query: request.query, page: normalisePage(request) };
}

export interface Registration {
  email: string;
  name: string;
  /** Empty: the user is invited by e-mail. */
  password: string;
  plan: Plan;
}

export function readRegistration(request: RegisterPlatformUserRequest): Registration {
  const email = normaliseEmail(request.email);
  const name = request.name.trim();
  const plan = request.plan.trim() || defaultCustomerPlan;
  const issues: FieldIssue[] = [];
  const emailProblem = emailIssue(email);
  if (emailProblem) issues.push({ field: 'email', issue: emailProblem });
  // The name also names the user's workspace, which cannot be nameless.
  const nameProblem = name.length === 0 ? 'must not be empty' : nameIssue(name);
  if (nameProblem) issues.push({ field: 'name', issue: nameProblem });
  const passwordProblem = request.password === '' ? undefined : passwordIssue(request.password);
  if (passwordProblem) issues.push({ field: 'password', issue: passwordProblem });
  if (!isPlan(plan)) issues.push({ field: 'plan', issue: 'must be starter, pro or enterprise' });
  refuseAny(issues);
  return { email, name, password: request.password, plan: plan as Plan };
}

export interface TransferInput {
  userId: string;
  /** Signed: positive to the user, negative back to the platform. */
  creditUnits: bigint;
  description: string;
  idempotencyKey: string;
}

export function readTransfer(request: TransferPlatformCreditsRequest): TransferInput {
  const issues: FieldIssue[] = [];
  const magnitude = request.creditUnits < 0n ? -request.creditUnits : request.creditUnits;
  if (magnitude === 0n || magnitude > maxTransferUnits) {
    issues.push({ field: 'amount', issue: `must be a non-zero amount of credits within ±${maxTransferCredits}` });
  }
  if (request.description.length > maxDescriptionLength) issues.push({ field: 'description', issue: `must be at most ${maxDescriptionLength} characters` });
  refuseAny(issues);
  return { userId: request.userId, creditUnits: request.creditUnits, description: request.description, idempotencyKey: request.idempotencyKey };
}

export type UserStatus = 'active' | 'suspended';

export function readStatus(request: SetPlatformUserStatusRequest): UserStatus {
  if (request.status !== 'active' && request.status !== 'suspended') throw invalidRequest([{ field: 'status', issue: 'must be active or suspended' }]);
  return request.status;
}
