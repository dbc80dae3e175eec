// /workspace/members: the humans of a workspace and their roles (API.md 2). Identity enforces
// the role rules, keeps the last owner, and revokes credentials in the same transaction.
import type { z } from 'zod';
import { roles } from '@voice/runtime/access';
import { toIso } from '@voice/runtime/time';
import { pageQuerySchema } from '@voice/runtime/validation';
import type { Member } from '@voice/proto/voice/identity/v1/identity';
import { dataOf, listOfSchema, oneOf } from '@voice/contracts/responses';
import { addMemberBodySchema, deletedMemberSchema, memberSchema, presentedStatuses, updateMemberBodySchema } from '@voice/contracts/identity';
import type { RestRouter } from './router.js';
import type { RestDeps } from './deps.js';
import { deletedOf, listOf } from './presenters.js';
import { pageOf } from './validate.js';

const presentMember = (member: Member): z.infer<typeof memberSchema> => ({
  user_id: member.userId,
  email: member.email,
  name: member.name,
  role: oneOf(roles, member.role),
  status: oneOf(presentedStatuses, member.status),
  created_at: toIso(member.createdAt),
});

export function registerMemberRoutes(rest: RestRouter, deps: RestDeps): void {
  const identity = deps.clients.identity;
  const invitations = deps.clients.platformUsers;

  rest.operation({
    method: 'get',
    path: '/workspace/members',
    scope: 'settings:read',
    query: pageQuerySchema,
    doc: { id: 'listMembers', summary: 'The workspace’s members with their roles', toolset: 'account', response: listOfSchema(memberSchema) },
    handle: async (call) => {
      const page = pageOf(call.query);
      const answer = await identity.listMembers(page, call.options);
      return { body: listOf(answer.members.map(presentMember), page, answer.total) };
    },
  });

  rest.operation({
    method: 'post',
    path: '/workspace/members',
    scope: 'settings:write',
    body: addMemberBodySchema,
    doc: {
      id: 'addMember',
      summary: 'Invite a person to the workspace with a role',
      description:
        'Members are users of the workspace’s realm: the root platform’s for a workspace directly under the root, a white-label platform’s for the workspaces under it. The person is e-mailed an invitation and the member is `invited` until they accept it through the link: a new e-mail in the realm chooses its own password there, an existing user signs in with theirs. Nobody else ever sets a member’s password (`password` is refused), the answer is the same whether the e-mail had a user or not, and the member is named as `name` (or after the e-mail) until they accept, never as an existing user names itself. A user of another platform with the same e-mail is another person and is never touched. Inviting an `invited` member again sends another link; an active or suspended member is 409. A member of the `member` role cannot manage members; an admin manages admins and members; only an owner touches owners.',
      toolset: 'account',
      status: 201,
      response: dataOf(memberSchema),
    },
    handle: async (call) => {
      const { body } = call;
      const answer = await identity.addMember({ email: body.email, role: body.role, name: body.name ?? '' }, call.options);
      const member = answer.member!;
      await invitations.inviteMember(
        { userId: member.userId, email: member.email, name: member.name, role: member.role, realmWorkspaceId: answer.realmWorkspaceId, signIn: answer.signIn },
        call.options,
      );
      return { body: { data: presentMember(member) } };
    },
  });

  rest.operation({
    method: 'patch',
    path: '/workspace/members/:user_id',
    scope: 'settings:write',
    body: updateMemberBodySchema,
    doc: {
      id: 'updateMember',
      summary: 'Change a member’s role or status',
      description: 'Demoting or suspending a member revokes the credentials the change affects before the answer. The last active owner cannot be demoted or suspended (409), nor can an `invited` member be changed (409: remove it and invite again).',
      toolset: 'account',
      response: dataOf(memberSchema),
    },
    handle: async (call) => {
      const answer = await identity.updateMember({ userId: call.params.user_id, role: call.body.role, status: call.body.status }, call.options);
      return { body: { data: presentMember(answer.member!) } };
    },
  });

  rest.operation({
    method: 'delete',
    path: '/workspace/members/:user_id',
    scope: 'settings:write',
    doc: {
      id: 'removeMember',
      summary: 'Remove a member from the workspace',
      description: 'The member’s credentials in this workspace are revoked before the answer. The last active owner cannot be removed (409).',
      toolset: 'account',
      response: deletedMemberSchema,
    },
    handle: async (call) => {
      const userId = call.params.user_id;
      await identity.removeMember({ userId }, call.options);
      return { body: deletedOf(userId) };
    },
  });
}
