// The conversation a sandbox call plays, given in the call's metadata as `sandbox_script` (or the
// default one): the caller's and the assistant's turns, tool calls, internal events, the analysis
// to report, pauses and the hang-up, in order.
import { z } from 'zod';

const jsonObject = z.record(z.string(), z.unknown());

const stepSchema = z.union([
  /** The caller says something (a user turn). */
  z.strictObject({ say: z.string().min(1).max(2_000) }),
  /** The assistant says something (an assistant turn). */
  z.strictObject({ reply: z.string().min(1).max(2_000) }),
  /** The assistant calls one of its tools; the answer is recorded as an assistant turn. */
  z.strictObject({ tool: z.strictObject({ name: z.string().min(1).max(64), arguments: jsonObject.default({}) }) }),
  /** The analysis the call reports (summary, verdict, extracted fields). */
  z.strictObject({
    analysis: z.strictObject({ summary: z.string().max(10_000).default(''), verdict: z.string().max(200).default(''), extracted_fields: jsonObject.default({}) }),
  }),
  /** An event of the session, public or internal (e.g. component.fallback). */
  z.strictObject({ event: z.strictObject({ type: z.string().min(1).max(100), data: jsonObject.default({}) }) }),
  /** Nobody speaks for a while (the call gets longer). */
  z.strictObject({ pause_ms: z.number().int().min(0).max(600_000) }),
  /** A voicemail box answered: the runtime reports `voicemail.detected` and ends the call (reason `voicemail`); the script ends here. */
  z.strictObject({ voicemail: z.literal(true) }),
  /** Who hangs up; the script ends here. */
  z.strictObject({ hangup: z.enum(['assistant', 'caller']) }),
]);

export const sandboxScriptSchema = z.array(stepSchema).min(1).max(200);

export type ScriptStep = z.infer<typeof stepSchema>;

/** Played when the call's metadata gives no script. */
export const defaultScript: ScriptStep[] = [
  { say: 'Hello?' },
  { reply: 'Thank you for taking the call. This is a sandbox conversation; goodbye!' },
  { hangup: 'assistant' },
];

/** Played when a voicemail box answered and the call's metadata gives no script. */
export const voicemailScript: ScriptStep[] = [{ voicemail: true }];

export type ScriptChoice = { ok: true; steps: ScriptStep[] } | { ok: false; problem: string };

/** The script of the call's metadata, the default one without (the voicemail one when a machine answered), or what is wrong with it. */
export function scriptOf(metadata: Record<string, unknown> | undefined, answeredBy?: string): ScriptChoice {
  const given = metadata?.sandbox_script;
  if (given === undefined) return { ok: true, steps: answeredBy?.startsWith('machine') ? voicemailScript : defaultScript };
  const parsed = sandboxScriptSchema.safeParse(given);
  if (parsed.success) return { ok: true, steps: parsed.data };
  const issue = parsed.error.issues[0]!;
  return { ok: false, problem: `metadata.sandbox_script${issue.path.map((part) => `[${String(part)}]`).join('')}: ${issue.message}` };
}
