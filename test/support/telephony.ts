// Telephony set-up through the public API, as a customer would do it, and waiting for the
// asynchronous parts (delivery reports, the ledger) to catch up.
import type { ApiClient } from './api-client.js';

/** Polls until `check` returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Buys the first marketplace number offered (US by default) and enables outbound SMS on it. */
export async function buySmsNumber(api: ApiClient, key: string, options: { country?: string; areaCode?: string; enable?: boolean } = {}) {
  const query = new URLSearchParams({ country: options.country ?? 'US', limit: '50' });
  if (options.areaCode) query.set('area_code', options.areaCode);
  const search = await api.get(`/phone-numbers/available?${query}`, key);
  if (search.status !== 200) throw new Error(`search failed: ${search.text}`);
  for (const offer of search.body.data as { number: string }[]) {
    const bought = await api.post('/phone-numbers', key, { number: offer.number });
    if (bought.status === 409) continue;
    if (bought.status !== 201) throw new Error(`purchase failed: ${bought.text}`);
    if (options.enable === false) return bought.body.data as { id: string; number: string };
    const enabled = await api.patch(`/phone-numbers/${bought.body.data.id}`, key, { sms_outbound_enabled: true });
    if (enabled.status !== 200) throw new Error(`enable failed: ${enabled.text}`);
    return enabled.body.data as { id: string; number: string };
  }
  throw new Error('no marketplace number could be bought');
}

type LedgerEntry = { id: string; kind: string; credits: string; reference: string; balance_after: { credits: string } };

/**
 * The workspace's whole ledger (newest first), page by page. Entries added while paging push older
 * ones onto the next page, so an entry read twice is kept once.
 */
export async function ledger(api: ApiClient, key: string): Promise<LedgerEntry[]> {
  const entries = new Map<string, LedgerEntry>();
  for (let offset = 0; ; offset += 200) {
    const response = await api.get(`/transactions?limit=200&offset=${offset}`, key);
    if (response.status !== 200) throw new Error(`ledger failed: ${response.text}`);
    for (const entry of response.body.data as LedgerEntry[]) entries.set(entry.id, entry);
    if (offset + 200 >= response.body.meta.pagination.total) return [...entries.values()];
  }
}

/** Waits until the ledger holds `count` entries of `kind`, and returns them. */
export const ledgerWith = (api: ApiClient, key: string, kind: string, count: number, timeoutMs = 15_000) =>
  eventually(
    async () => {
      const entries = (await ledger(api, key)).filter((entry) => entry.kind === kind);
      return entries.length >= count ? entries : undefined;
    },
    timeoutMs,
    `${count} ${kind} ledger entries`,
  );

/** GET /balance as it reads when no hold is open: the whole balance available. */
export const settledBalance = (credits: string, minutes = '0.000') => ({ credits, minutes, available: { credits, minutes } });

export async function balance(api: ApiClient, key: string): Promise<{ credits: string; minutes: string; available: { credits: string; minutes: string } }> {
  const response = await api.get('/balance', key);
  if (response.status !== 200) throw new Error(`balance failed: ${response.text}`);
  return response.body.data;
}

/** Waits until the workspace's available credits are `credits`: a hold released or captured through the outbox lands after the answer that caused it. */
export const availableCreditsReach = (api: ApiClient, key: string, credits: string, timeoutMs = 15_000): Promise<true> =>
  eventually(async () => ((await balance(api, key)).available.credits === credits ? true : undefined), timeoutMs, `available credits of ${credits}`);
