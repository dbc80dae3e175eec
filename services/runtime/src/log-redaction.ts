// The one list of credential-bearing field names: the logger replaces their values wherever they
// appear, at the top of a log line or nested in a logged object, so a header, a request body or a
// store record logged whole never carries a credential.

/** Field names whose value is a credential, in every spelling our code and HTTP use. */
export const credentialFields = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'password',
  'newPassword',
  'new_password',
  'secret',
  'clientSecret',
  'client_secret',
  'token',
  'accessToken',
  'access_token',
  'refreshToken',
  'refresh_token',
  'idToken',
  'id_token',
  'apiKey',
  'api_key',
  'x-api-key',
  'authToken',
  'auth_token',
  'privateKey',
  'private_key',
  'internalSecret',
  'x-voice-caller',
] as const;

/** Nesting depth to which a credential field is found (a field of a field of a field of the line). */
const depth = 3;

export const redactedValue = '[redacted]';

/** The redaction paths (pino's syntax) of every credential field at every depth up to `depth`. */
export function credentialPaths(): string[] {
  const accessor = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : `["${name}"]`);
  return credentialFields.flatMap((name) =>
    Array.from({ length: depth + 1 }, (_, level) => {
      const prefix = '*.'.repeat(level).replace(/\.$/, '');
      const key = accessor(name);
      if (level === 0) return key;
      return key.startsWith('[') ? `${prefix}${key}` : `${prefix}.${key}`;
    }),
  );
}
