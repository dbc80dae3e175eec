// /balance, /transactions and /usage/summary: the workspace's wallet, ledger and consumption
// (SPEC.md 4.3; API.md 6). Amounts are exact decimal strings.
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { z } from 'zod';
import { pageQuerySchema } from '@voice/runtime';
import type { RestRouter } from './router.js';
import { callOptions, type RestDeps } from './deps.js';
import { presentBalance, presentTransaction, presentUsageSummary } from './billing-presenters.js';
import { listOf } from './presenters.js';
import { pageOf, parseQuery } from './validate.js';


const instant = z.iso.datetime({ offset: true, error: 'must be an RFC 3339 time, e.g. 2026-11-01T00:00:00.000Z' });
const usageSummaryQuerySchema = z.strictObject({ from: instant.optional(), to: instant.optional() });

const timestampOf = (value: string | undefined) => (value === undefined ? undefined : timestampFromDate(new Date(value)));

export function registerBillingRoutes(rest: RestRouter, deps: RestDeps): void {
  const billing = deps.clients.billing;

  rest.route('get', '/balance', { scope: 'billing:read' }, async (_req, res) => {
    const answer = await billing.getBalance({}, callOptions(deps, res));
    res.json({ data: presentBalance(answer.wallet!) });
  });

  rest.route('get', '/transactions', { scope: 'billing:read' }, async (req, res) => {
    const page = pageOf(parseQuery(pageQuerySchema, req));
    const answer = await billing.listTransactions({ page }, callOptions(deps, res));
    res.json(listOf(answer.transactions.map(presentTransaction), page, answer.total));
  });

  rest.route('get', '/usage/summary', { scope: 'billing:read' }, async (req, res) => {
    const query = parseQuery(usageSummaryQuerySchema, req);
    const answer = await billing.getUsageSummary({ from: timestampOf(query.from), to: timestampOf(query.to) }, callOptions(deps, res));
    res.json({ data: presentUsageSummary(answer) });
  });
}
