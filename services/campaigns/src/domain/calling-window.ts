// When a lead may be called: on the window's days between its start and end, in the lead's own time
// zone (the window's for a lead without one). Answers how long until the window next opens.
import type { CampaignSettings, Weekday } from '@voice/contracts/campaigns';

type CallingWindow = CampaignSettings['window'];

interface LocalTime {
  year: number;
  month: number;
  day: number;
  weekday: Weekday;
  /** Minutes since local midnight. */
  minute: number;
}

const weekdayOf: Record<string, Weekday> = { Mon: 'mon', Tue: 'tue', Wed: 'wed', Thu: 'thu', Fri: 'fri', Sat: 'sat', Sun: 'sun' };
const formats = new Map<string, Intl.DateTimeFormat>();

function localTime(at: number, timeZone: string): LocalTime {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', weekday: 'short', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' });
    formats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(at)).map((part) => [part.type, part.value]));
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day), weekday: weekdayOf[parts.weekday!]!, minute: Number(parts.hour) * 60 + Number(parts.minute) };
}

const minutesOf = (clock: string): number => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));

/** The zone's offset from UTC at `at`, in ms (local wall time minus UTC). */
function offsetMs(at: number, timeZone: string): number {
  const local = localTime(at, timeZone);
  const wall = Date.UTC(local.year, local.month - 1, local.day, 0, local.minute);
  return wall - (at - (at % 60_000));
}

/** The instant a local wall time occurs in the zone (the later reading across a change of offset). */
function instantOf(year: number, month: number, day: number, minute: number, timeZone: string): number {
  const wall = Date.UTC(year, month - 1, day, 0, minute);
  const first = wall - offsetMs(wall, timeZone);
  return wall - offsetMs(first, timeZone);
}

/** 0 when the window is open at `now` for a lead in `leadTimeZone`, else the ms until it next opens. */
export function windowOpensInMs(window: CallingWindow, leadTimeZone: string | null, now: number): number {
  const zone = leadTimeZone ?? window.time_zone;
  const start = minutesOf(window.start);
  const end = minutesOf(window.end);
  const local = localTime(now, zone);
  if (window.days.includes(local.weekday) && local.minute >= start && local.minute < end) return 0;
  // The next opening is within eight local days (the window has at least one day a week).
  for (let ahead = 0; ahead <= 8; ahead += 1) {
    const date = new Date(Date.UTC(local.year, local.month - 1, local.day + ahead));
    const weekday = weekdayOf[date.toUTCString().slice(0, 3)]!;
    if (!window.days.includes(weekday)) continue;
    const opens = instantOf(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), start, zone);
    if (opens > now) return opens - now;
  }
  throw new Error('a calling window opens at least once a week');
}
