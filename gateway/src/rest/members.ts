// /workspace/members: the humans of a workspace and their roles (API.md 2). Identity enforces
// the role rules, keeps the last owner, and revokes credentials in the same transaction.
import { z } from 'zod';
import { checkedBy, emailIssue, maxNameLength, memberStatuses, normaliseEmail, pageQuerySchema, passwordIssue, roles, toIso } from '@voice/runtime';
import type { Member } from '@voice/proto/voice/identity/v1/identity';
import type { RestRouter } from './router.js';
import { callOptions, type RestDeps } from './deps.js';
import { deletedOf, listOf } from './presenters.js';
import { pageOf, parseBody, parseQuery } from './validate.js';

const role = z.enum(roles);

export const addMemberBodySchema = z.strictObject({
  email: z.string().superRefine(checkedBy((email) => emailIssue(normaliseEmail(email)))),
  role,
  password: z.string().superRefine(checkedBy(passwordIssue)).optional(),
  name: z.string().trim().min(1).max(maxNameLength).optional(),
});

export const updateMemberBodySchema = z
  .strictObject({ role: role.optional(), status: z.enum(memberStatuses).optional() })
  .refine((body) => body.role !== undefined || body.status !== undefined, { message: 'send role, status or both', path: ['role'] });


const presentMember = (member: Member) => ({
  user_id: member.userId,
  email: member.email,
  name: member.name,
  role: member.role,
  status: member.status,
  created_at: toIso(member.createdAt),
});

export function registerMemberRoutes(rest: RestRouter, deps: RestDeps): void {
  const identity = deps.clients.identity;

  rest.route('get', '/workspace/members', { scope: 'settings:read' }, async (req, res) => {
    const page = pageOf(parseQuery(pageQuerySchema, req));
    const answer = await identity.listMembers(page, callOptions(deps, res));
    res.json(listOf(answer.members.map(presentMember), page, answer.total));
  });

  rest.route('post', '/workspace/members', { scope: 'settings:write' }, async (req, res) => {
    const body = parseBody(addMemberBodySchema, req.body);
    const answer = await identity.addMember(
      { email: body.email, role: body.role, password: body.password ?? '', name: body.name ?? '' },
      callOptions(deps, res),
    );
    res.status(201).json({ data: presentMember(answer.member!) });
  });

  rest.route('patch', '/workspace/members/:user_id', { scope: 'settings:write' }, async (req, res) => {
    const body = parseBody(updateMemberBodySchema, req.body);
    const answer = await identity.updateMember({ userId: String(req.params.user_id), role: body.role, status: body.status }, callOptions(deps, res));
    res.json({ data: presentMember(answer.member!) });
  });

  rest.route('delete', '/workspace/members/:user_id', { scope: 'settings:write' }, async (req, res) => {
    const userId = String(req.params.user_id);
    await identity.removeMember({ userId }, callOptions(deps, res));
    res.json(deletedOf(userId));
  });
}
