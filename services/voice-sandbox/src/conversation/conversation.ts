// Plays one call's conversation through the calls service: starts the session, speaks the first
// message, plays the script's steps (turns, tool calls, events, analysis, pauses) until it hangs up,
// the carrier hangs up (`stopped`) or the call reaches its time limit, then uploads a recording of
// the call's length and ends the session.
import { setTimeout as sleep } from 'node:timers/promises';
import type { JsonObject } from '@bufbuild/protobuf';
import { silentWav } from '../recording/wav.js';
import { scriptOf, type ScriptStep } from './script.js';
import type { SessionReports } from './session-reports.js';

export type EndReason = 'assistant_ended' | 'caller_hung_up' | 'max_duration' | 'voicemail' | 'error';

export interface ConversationOptions {
  /** Who answered, when the carrier's answering-machine detection says (`machine_start`: a voicemail box). */
  answeredBy?: string;
  /** When the call's media started (the `start` message), in ms of `now`. */
  startedAtMs: number;
  /** Aborted when the carrier hangs up (`stop`, or the stream closed). */
  stopped: AbortSignal;
  turnGapMs: number;
  now: () => number;
}

/** Waits `ms`, or less when the signal aborts first (the abort is the caller's to read). */
const pause = (ms: number, signal: AbortSignal): Promise<void> =>
  ms <= 0 || signal.aborted ? Promise.resolve() : sleep(ms, undefined, { signal }).catch(() => undefined);

const toolAnswerText = (name: string, answer: Awaited<ReturnType<SessionReports['invokeTool']>>): string =>
  answer.ok ? (typeof answer.result === 'string' ? answer.result : JSON.stringify(answer.result)) : `The ${name} tool failed: ${answer.error}`;

const hangupReasons = { assistant: 'assistant_ended', caller: 'caller_hung_up' } as const;

/** Plays the conversation; resolves with why it ended once the session has ended (or could not be reported further). */
export async function playConversation(reports: SessionReports, options: ConversationOptions): Promise<EndReason> {
  const session = await reports.start();
  const limit = new AbortController();
  const timeLimit = setTimeout(() => limit.abort(), Math.max(1, session.maxDurationSeconds) * 1000);
  const over = AbortSignal.any([options.stopped, limit.signal]);
  let reason: EndReason = 'assistant_ended';
  try {
    if (session.firstMessage !== '') await reports.transcript('assistant', session.firstMessage);
    const script = scriptOf(session.metadata as Record<string, unknown> | undefined, options.answeredBy);
    if (!script.ok) {
      await reports.event('session.error', { message: script.problem });
      reason = 'error';
    } else {
      reason = await playSteps(reports, script.steps, over, options.turnGapMs);
    }
  } finally {
    clearTimeout(timeLimit);
  }
  if (limit.signal.aborted) reason = 'max_duration';
  else if (options.stopped.aborted) reason = 'caller_hung_up';
  const seconds = Math.max(1, Math.ceil((options.now() - options.startedAtMs) / 1000));
  await reports.uploadRecording(silentWav(seconds));
  await reports.end(reason);
  return reason;
}

async function playSteps(reports: SessionReports, steps: ScriptStep[], over: AbortSignal, turnGapMs: number): Promise<EndReason> {
  for (const step of steps) {
    if (over.aborted) return 'caller_hung_up';
    if ('hangup' in step) return hangupReasons[step.hangup];
    if ('voicemail' in step) {
      // What a real runtime does when a machine answers: it says so, then ends the call.
      await reports.event('voicemail.detected', {});
      return 'voicemail';
    }
    if ('say' in step) await reports.transcript('user', step.say);
    else if ('reply' in step) await reports.transcript('assistant', step.reply);
    else if ('tool' in step) {
      const answer = await reports.invokeTool(step.tool.name, step.tool.arguments as JsonObject);
      await reports.transcript('assistant', toolAnswerText(step.tool.name, answer));
    } else if ('event' in step) await reports.event(step.event.type, step.event.data as JsonObject);
    else if ('analysis' in step) {
      await reports.analysis({ summary: step.analysis.summary, verdict: step.analysis.verdict, extractedFields: step.analysis.extracted_fields as JsonObject });
    } else await pause(step.pause_ms, over);
    await pause(turnGapMs, over);
  }
  return 'assistant_ended';
}
