// What the OpenAPI tests share: the fixed list of every operation the API serves, and the
// documented operations of a document.
/** Every operation the API serves. A new route is added here, after it is declared and documented. */
export const knownRoutes = [
  'GET /me',
  'GET /tools',
  'POST /tools',
  'GET /tools/{id}',
  'PATCH /tools/{id}',
  'DELETE /tools/{id}',
  'POST /tools/{id}/test',
  'GET /assistants',
  'POST /assistants',
  'GET /assistants/{id}',
  'PATCH /assistants/{id}',
  'DELETE /assistants/{id}',
  'GET /assistants/{id}/versions',
  'GET /assistants/{id}/versions/{number}',
  'POST /assistants/{id}/versions/{number}/restore',
  'GET /catalog/models',
  'GET /voices',
  'GET /api-keys',
  'POST /api-keys',
  'DELETE /api-keys/{id}',
  'GET /workspace/members',
  'POST /workspace/members',
  'PATCH /workspace/members/{user_id}',
  'DELETE /workspace/members/{user_id}',
  'GET /phone-numbers',
  'GET /phone-numbers/available',
  'POST /phone-numbers',
  'POST /phone-numbers/import',
  'GET /phone-numbers/{id}',
  'PATCH /phone-numbers/{id}',
  'DELETE /phone-numbers/{id}',
  'GET /carrier-connections',
  'POST /carrier-connections',
  'GET /carrier-connections/{id}',
  'PATCH /carrier-connections/{id}',
  'DELETE /carrier-connections/{id}',
  'POST /carrier-connections/{id}/test',
  'GET /a2p-campaigns',
  'POST /a2p-campaigns',
  'GET /a2p-campaigns/{id}',
  'GET /suppression',
  'POST /suppression',
  'DELETE /suppression/{id}',
  'POST /sms/send',
  'GET /sms/messages',
  'GET /sms/messages/{id}',
  'GET /balance',
  'GET /transactions',
  'GET /usage/summary',
  'GET /custom-domain',
  'POST /custom-domain',
  'POST /custom-domain/verify',
  'DELETE /custom-domain',
  'GET /platform/users',
  'POST /platform/users',
  'POST /platform/users/login',
  'GET /platform/users/{user_id}',
  'PATCH /platform/users/{user_id}',
  'POST /platform/users/{user_id}/token',
  'POST /platform/users/{user_id}/logout',
  'POST /platform/users/{user_id}/balance',
].sort();

export const methods = ['get', 'post', 'patch', 'delete'] as const;

/** A parsed JSON document, walked without a schema of its own. */
export type Json = Record<string, any>;

/** The documented operations as "METHOD /path" with their objects. */
export const operationsOf = (document: Json): [string, Json][] =>
  Object.entries(document.paths as Json).flatMap(([path, item]) =>
    methods.filter((method) => item[method]).map((method): [string, Json] => [`${method.toUpperCase()} ${path}`, item[method]]),
  );
