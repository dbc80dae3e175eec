// SIP trunks' request and answer schemas, with their limits: shared by the gateway (validation,
// OpenAPI, MCP) and the telephony service (its own RPC boundary).
import { z } from 'zod';
import { idField, idSchema, timeSchema } from '../responses.js';
import { secretMask } from '../secret-mask.js';
import { parseSipAddress, sipTransports, type SipTransport } from './sip-address.js';

export const sipTrunkDirections = ['inbound', 'outbound', 'both'] as const;
export const sipCheckFailures = ['timeout', 'unreachable', 'dns_error', 'tls_error', 'bad_response'] as const;

/** How many trunks a workspace may hold. */
export const maxSipTrunksPerWorkspace = 50;
/** How many numbers one trunk may route. */
export const maxNumbersPerSipTrunk = 100;

const name = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters').describe('a name for people, at most 100 characters');

const address = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(255, 'must be at most 255 characters')
  .refine((value) => parseSipAddress(value, 'udp') !== undefined, 'must be a sip: or sips: URI or host[:port] (a DNS name, IPv4 or [IPv6] address, port 1-65535), without a user part')
  .describe('where the trunk answers: `sip:host[:port]`, `sips:host[:port]` (TLS only) or `host[:port]`; the port defaults to 5060 (5061 for TLS); at most 255 characters');

const transport = z.enum(sipTransports).describe('the transport SIP requests use: udp, tcp or tls');

const direction = z.enum(sipTrunkDirections).describe('which calls the trunk carries: inbound (to the workspace’s numbers), outbound (placed by the platform) or both');

const username = z
  .string()
  .max(128, 'must be at most 128 characters')
  .regex(/^[^\s:]*$/, 'must contain no spaces or colons')
  .describe('the digest authentication user name; empty for a trunk that takes no authentication; at most 128 characters');

const password = z
  .string()
  .min(1, 'must not be empty')
  .max(128, 'must be at most 128 characters')
  .describe('the digest authentication password, write-only: stored encrypted, answered only as the mask •••; at most 128 characters');

const numberIds = z
  .array(idField)
  .max(maxNumbersPerSipTrunk, `must hold at most ${maxNumbersPerSipTrunk} numbers`)
  .refine((ids) => new Set(ids).size === ids.length, 'must not repeat a number')
  .describe(`ids of the workspace’s phone numbers whose calls go through the trunk (at most ${maxNumbersPerSipTrunk}); a number goes through one trunk at most`);

/**
 * The rules a trunk's settings obey together, as created or as a change leaves them: a sips:
 * address needs TLS, a password needs a user name and a user name a password.
 */
export function sipTrunkIssues(trunk: { address: string; transport: SipTransport; username: string; hasPassword: boolean }): { field: string; issue: string }[] {
  return [
    ...(trunk.transport !== 'tls' && parseSipAddress(trunk.address, trunk.transport)?.secure ? [{ field: 'transport', issue: 'must be tls for a sips: address' }] : []),
    ...(trunk.hasPassword && !trunk.username ? [{ field: 'username', issue: 'is required with a password' }] : []),
    ...(trunk.username && !trunk.hasPassword ? [{ field: 'password', issue: 'is required with a username' }] : []),
  ];
}

export const createSipTrunkBodySchema = z
  .strictObject({
    name,
    address,
    transport: transport.default('udp').describe('the transport SIP requests use: udp (the default), tcp or tls'),
    direction: direction.default('both').describe('which calls the trunk carries: inbound, outbound or both (the default)'),
    username: username.optional(),
    password: password.refine((value) => value !== secretMask, 'must be the password itself').optional(),
    number_ids: numberIds.default([]),
  })
  .superRefine((body, context) => {
    const trunk = { address: body.address, transport: body.transport, username: body.username ?? '', hasPassword: body.password !== undefined };
    for (const { field, issue } of sipTrunkIssues(trunk)) context.addIssue({ code: 'custom', path: [field], message: issue });
  });

/** Only the fields sent change: the service checks what the change leaves against sipTrunkIssues. */
export const updateSipTrunkBodySchema = z
  .strictObject({
    name: name.optional(),
    address: address.optional(),
    transport: transport.optional(),
    direction: direction.optional(),
    username: username.optional().describe('the digest user name; an empty string removes the authentication and its stored password'),
    password: password.optional().describe('the digest password, write-only; the mask ••• keeps the stored one'),
    number_ids: numberIds.optional().describe('replaces the numbers routed through the trunk (an empty array routes none)'),
  });

export const sipTrunkSchema = z
  .object({
    id: idSchema,
    name: z.string().describe('a name for people'),
    address: z.string().describe('where the trunk answers, as given'),
    transport: z.enum(sipTransports).describe('udp, tcp or tls'),
    direction: z.enum(sipTrunkDirections).describe('inbound, outbound or both'),
    authentication: z
      .object({
        username: z.string().describe('the digest user name'),
        password: z.string().describe('always the mask •••; never the password'),
      })
      .nullable()
      .describe('digest credentials the platform answers the trunk’s challenges with; null when it takes none'),
    number_ids: z.array(idSchema).describe('the workspace’s numbers routed through the trunk; while there are any the trunk cannot be deleted'),
    created_at: timeSchema.describe('when the trunk was created'),
    updated_at: timeSchema.describe('when the trunk last changed'),
  })
  .meta({ id: 'SipTrunk' });

export const sipTrunkCheckSchema = z
  .object({
    reachable: z.boolean().describe('whether the trunk answered the OPTIONS request with a final SIP response (any status)'),
    status_code: z.int().min(200).max(699).nullable().describe('the SIP status code it answered, e.g. 200, 401 or 503; null without an answer'),
    reason_phrase: z.string().nullable().describe('the reason phrase of the answer, e.g. OK; null without an answer'),
    round_trip_ms: z.int().min(0).nullable().describe('milliseconds from sending the request to reading the answer; null without an answer'),
    failure: z
      .object({
        code: z.enum(sipCheckFailures).describe('timeout, unreachable, dns_error, tls_error or bad_response'),
        message: z.string().describe('what went wrong, in words for people'),
      })
      .nullable()
      .describe('why no answer came; null when one did'),
  })
  .meta({ id: 'SipTrunkCheck' });
