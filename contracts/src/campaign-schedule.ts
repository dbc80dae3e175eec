// A campaign's schedule: a standard five-field cron expression (minute precision; nicknames such as
// `@daily` too) read in an IANA time zone, parsed by croner (no dependencies, time zones through Intl,
// with its documented handling of the hours a change of offset skips or repeats). The one place the
// expression is parsed: the contract checks it, the campaigns service computes the next occurrence.
import { Cron } from 'croner';

export interface Schedule {
  cron: string;
  time_zone: string;
}

const parse = (schedule: Schedule): Cron => new Cron(schedule.cron, { timezone: schedule.time_zone, mode: '5-part', paused: true });

/** What is wrong with the expression (for the `cron` field), or undefined; `time_zone` must be valid already. */
export function cronIssue(schedule: Schedule, now = new Date()): string | undefined {
  let cron: Cron;
  try {
    cron = parse(schedule);
  } catch (error) {
    return `must be a cron expression of five fields (minute hour day-of-month month day-of-week), e.g. "0 9 * * 1-5": ${(error as Error).message}`;
  }
  return cron.nextRun(now) === null ? 'never occurs (e.g. 30 February)' : undefined;
}

/** The first occurrence strictly after `after`, or null when there is none. */
export const nextScheduledRun = (schedule: Schedule, after: Date): Date | null => parse(schedule).nextRun(after);
