// What each load-generator connection sends: a fixed GET, a closed-loop PATCH on a tool the
// connection owns alone (always carrying the revision its previous answer returned), an SMS, or a call.
import type autocannon from 'autocannon';
import type { ToolFixture } from './fixtures.js';
import type { AcceptedLog } from './accepted-log.js';
import type { BenchCaller } from './call-fixtures.js';
import type { SmsSender } from './sms-fixtures.js';

/** Builds the request of the connection with this index (0 .. connections-1). */
export type Scenario = (connection: number) => autocannon.Request;

/** GETs of `/api/v1/<collection>/{id}`, each connection reading one of `ids`. */
export function getByIdScenario(apiKey: string, collection: string, ids: string[]): Scenario {
  if (ids.length === 0) throw new Error(`no ${collection} to GET`);
  return (connection) => ({
    method: 'GET',
    path: `/api/v1/${collection}/${ids[connection % ids.length]!}`,
    headers: { Authorization: `Bearer ${apiKey}` },
  });
}

export const getToolScenario = (apiKey: string, toolIds: string[]): Scenario => getByIdScenario(apiKey, 'tools', toolIds);

const staleRevision = /at revision (\d+)/;

/**
 * Every PATCH needs the tool's current revision, so each connection owns one tool and waits for
 * its answer (pipelining 1) before it sends the next PATCH with the returned revision: no 409 is
 * expected, and any non-2xx is a real failure. A 409 still resynchronises the connection so one
 * lost answer does not turn the rest of the run into conflicts.
 */
export function patchToolScenario(apiKey: string, tools: ToolFixture[]): Scenario {
  return (connection) => {
    const tool = tools[connection];
    if (!tool) throw new Error(`connection ${connection} owns no tool (only ${tools.length} created)`);
    return {
      method: 'PATCH',
      path: `/api/v1/tools/${tool.id}`,
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      setupRequest: (request) => ({
        ...request,
        body: JSON.stringify({ description: `bench revision ${tool.revision + 1}`, expected_revision: tool.revision }),
      }),
      onResponse: (status, body) => {
        if (status === 200) {
          tool.revision = (JSON.parse(body) as { data: { revision: number } }).data.revision;
        } else if (status === 409) {
          const current = staleRevision.exec(body)?.[1];
          if (current !== undefined) tool.revision = Number(current);
        }
      },
    };
  };
}

/**
 * Every connection sends the same one-segment GSM-7 SMS from the same number to the same
 * destination (no Idempotency-Key, so each request is a new message). Each 202 answer is logged
 * (id and created_at) for the event-lag check.
 */
export function sendSmsScenario(apiKey: string, sender: SmsSender, destination: string, sent: AcceptedLog): Scenario {
  const body = JSON.stringify({ from_number_id: sender.id, to: destination, body: 'Your bench appointment is confirmed for 10:30 tomorrow.' });
  return () => ({
    method: 'POST',
    path: '/api/v1/sms/send',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body,
    onResponse: (status, responseBody) => {
      if (status === 202) sent.record(responseBody);
    },
  });
}

/**
 * Every connection places the same call from the bench number to a destination the sandbox answers
 * (no Idempotency-Key, so each request is a new call). Each 201 answer is logged (id and
 * created_at) for the lag from the call's end to its ledger entry.
 */
export function placeCallScenario(apiKey: string, caller: BenchCaller, destination: string, script: readonly unknown[], placed: AcceptedLog): Scenario {
  const body = JSON.stringify({ assistant_id: caller.assistantId, from: caller.from, to: destination, metadata: { sandbox_script: script } });
  return () => ({
    method: 'POST',
    path: '/api/v1/calls',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body,
    onResponse: (status, responseBody) => {
      if (status === 201) placed.record(responseBody);
    },
  });
}
