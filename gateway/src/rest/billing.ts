// /balance, /transactions and /usage/summary: the workspace's wallet, ledger and consumption
// (SPEC.md 4.3; API.md 6). Amounts are exact decimal strings.
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { pageQuerySchema } from '@voice/runtime/validation';
import { dataOf, listOfSchema } from '@voice/contracts/responses';
import { balanceSchema, transactionSchema, usageSummaryQuerySchema, usageSummarySchema } from '@voice/contracts/billing';
import type { RestRouter } from './router.js';
import type { RestDeps } from './deps.js';
import {
  presentBalance,
  presentTransaction,
  presentUsageSummary,
  } from './billing-presenters.js';
import { toolHints } from './operation.js';
import { listOf } from './presenters.js';
import { pageOf } from './validate.js';

const timestampOf = (value: string | undefined) => (value === undefined ? undefined : timestampFromDate(new Date(value)));

export function registerBillingRoutes(rest: RestRouter, deps: RestDeps): void {
  const billing = deps.clients.billing;

  rest.operation({
    method: 'get',
    path: '/balance',
    scope: 'billing:read',
    doc: {
      id: 'getBalance',
      summary: 'The workspace’s balance in credits and minutes, and what of it is available',
      description:
        'Every charge is first a hold of the amount against `available` (the balance less open holds) and then its capture: ' +
        'sending an SMS holds its price until the carrier has taken it, buying or renewing a number holds the month’s fee. ' +
        'A hold that cannot be covered refuses the operation (`409`); `credits` moves only when a hold is captured, ' +
        'and `available` never goes below zero, except in the root platform’s wallet, which issues credits. ' +
        'A wallet’s included minutes are used before its credits.',
      toolset: 'billing',
      response: dataOf(balanceSchema),
      mcp: { tool: 'get_balance', annotations: toolHints.read },
    },
    handle: async (call) => ({ body: { data: presentBalance((await billing.getBalance({}, call.options)).wallet!) } }),
  });

  rest.operation({
    method: 'get',
    path: '/transactions',
    scope: 'billing:read',
    query: pageQuerySchema,
    doc: { id: 'listTransactions', summary: 'The ledger, newest first', toolset: 'billing', response: listOfSchema(transactionSchema) },
    handle: async (call) => {
      const page = pageOf(call.query);
      const answer = await billing.listTransactions({ page }, call.options);
      return { body: listOf(answer.transactions.map(presentTransaction), page, answer.total) };
    },
  });

  rest.operation({
    method: 'get',
    path: '/usage/summary',
    scope: 'billing:read',
    query: usageSummaryQuerySchema,
    doc: {
      id: 'getUsageSummary',
      summary: 'Consumption between two instants, by kind',
      description: '`from` defaults to the start of the current UTC month, `to` to now.',
      toolset: 'billing',
      response: dataOf(usageSummarySchema),
      mcp: { tool: 'get_usage_summary', annotations: toolHints.read },
    },
    handle: async (call) => {
      const answer = await billing.getUsageSummary({ from: timestampOf(call.query.from), to: timestampOf(call.query.to) }, call.options);
      return { body: { data: presentUsageSummary(answer) } };
    },
  });
}
