// Schemas of the public answers: the {data} and list envelopes around each resource's schema, and
// the shared pieces (times, ids, exact amounts). The gateway's presenters are typed by them and its
// OpenAPI document is generated from them, so the document cannot drift from what the API sends.
import { z } from 'zod';
import { errorReasons } from '@voice/runtime/errors';
import { isUuid } from '@voice/runtime/ids';

export const idSchema = z.uuid().describe('UUID v4');
/** An id a client sends: the refinement keeps our message, the format tells clients the rule. */
export const idField = z.string().refine(isUuid, 'must be a UUID').meta({ format: 'uuid' });
export const timeSchema = z.iso.datetime().describe('RFC 3339 UTC time with milliseconds');
export const creditsSchema = z.string().regex(/^-?\d+\.\d{4}$/).describe('credits as an exact decimal string with 4 places');
export const minutesSchema = z.string().regex(/^-?\d+\.\d{3}$/).describe('minutes as an exact decimal string with 3 places');
export const amountsSchema = z.object({ credits: creditsSchema, minutes: minutesSchema });
export const e164Schema = z.string().regex(/^\+[1-9]\d{1,14}$/).describe('phone number in E.164 form, e.g. +14155550100');

/**
 * A service's string field as the closed set the schema documents. The services send only these
 * values (they store nothing else), so this narrows the type for the presenter; it checks nothing
 * at run time, and a value outside the set would pass through unchanged.
 */
export const oneOf = <const Values extends readonly string[]>(_values: Values, value: string): Values[number] => value as Values[number];

export const dataOf = <T extends z.ZodType>(schema: T) => z.object({ data: schema });

export const paginationSchema = z.object({
  limit: z.int().min(1).max(200),
  offset: z.int().min(0),
  total: z.int().min(0).describe('matches ignoring limit and offset'),
}).meta({ id: 'Pagination' });

export const listOfSchema = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), meta: z.object({ pagination: paginationSchema }) });

export const deletedSchema = dataOf(z.object({ id: z.string(), deleted: z.literal(true) }));

export const errorSchema = z.object({
  error: z.object({
    code: z.enum(errorReasons).describe('stable machine-readable code; the status table in the introduction gives each one’s status'),
    message: z.string(),
    details: z.array(z.object({ field: z.string(), issue: z.string() })).optional(),
  }),
});
