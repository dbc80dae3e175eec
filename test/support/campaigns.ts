// Campaign tests' common ground: calling windows on the real clock (zones where it is now midday, so a
// window of 09:00 to 17:00 every day is open there, or just past midnight, where it is closed; or a
// window that opens at a given minute), and a workspace ready to run a calling campaign.
import type { TestPlatform } from './platform.js';
import { buySmsNumber } from './telephony.js';

export const everyDay = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** The `Etc/GMT` zone `offsetHours` ahead of UTC (its name's sign is inverted). */
const zoneAt = (offsetHours: number): string => (offsetHours === 0 ? 'Etc/GMT' : `Etc/GMT${offsetHours > 0 ? '-' : '+'}${Math.abs(offsetHours)}`);

/** A zone where it is now between 12:00 and 13:00, and one where it is between 00:00 and 01:00. */
export function windowZones(now = new Date()): { open: string; closed: string } {
  const noon = 12 - now.getUTCHours();
  return { open: zoneAt(noon), closed: zoneAt(noon >= 0 ? noon - 12 : noon + 12) };
}

/** 09:00 to 17:00 every day, in a zone where that is now (open) or not (closed) for leads without a zone of their own. */
export const dayWindow = (state: 'open' | 'closed') => ({ days: everyDay, start: '09:00', end: '17:00', time_zone: windowZones()[state] });

/** A window that opens at `opensAt` (a whole minute) every day and stays open for hours: 12:MM to 20:00 in the zone where that instant is 12:MM. */
export function windowOpeningAt(opensAt: number) {
  const at = new Date(opensAt);
  return { days: everyDay, start: `12:${String(at.getUTCMinutes()).padStart(2, '0')}`, end: '20:00', time_zone: zoneAt(12 - at.getUTCHours()) };
}

/** A workspace on the pro plan that can run a calling campaign: funded, with a number to call from and an assistant that greets the lead by name. */
export async function callingWorkspace(platform: TestPlatform, funds: { credits: string; minutes: string }) {
  const workspace = await platform.workspace({ plan: 'pro' });
  await platform.fund(workspace.id, funds.credits, funds.minutes);
  const number = await buySmsNumber(platform.api, workspace.key, { enable: false });
  const assistant = await platform.api.post('/assistants', workspace.key, { name: 'Caller', first_message: 'Hello {{name}}.' });
  expect(assistant.status).toBe(201);
  return { ...workspace, number, assistantId: assistant.body.data.id as string };
}
