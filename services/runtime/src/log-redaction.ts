// What no log line may carry, whoever logs it: credentials of ours (svc_ keys, OAuth tokens, codes
// and client secrets), authorization header values, the user part of a URL, query strings and
// invitation tokens in paths. The logger passes every string it writes through here, error
// messages and stacks included, so a library's message that quotes a URL cannot leak one either.

const redacted = '[redacted]';

const rules: ReadonlyArray<readonly [RegExp, string]> = [
  // Every credential identity issues starts with svc_ (keys, svc_at_, svc_rt_, svc_ac_, svc_cs_).
  [/\bsvc_[A-Za-z0-9_-]{8,}/g, `svc_${redacted}`],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${redacted}`],
  // scheme://user:password@host
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@"'<>]+@/gi, `$1${redacted}@`],
  // A query string (of a URL or a path): parameters such as code, state or api_key may be secrets.
  [/(\S)\?[^\s"'#<>]*=[^\s"'#<>]*/g, `$1?${redacted}`],
  // Paths whose segment is itself the credential: the invitation link's token (not the template's :token).
  [/\/invitations\/(?!:token\b)[^\s/?#"'<>]+/g, `/invitations/${redacted}`],
];

export function redactCredentials(text: string): string {
  let out = text;
  for (const [pattern, replacement] of rules) out = out.replace(pattern, replacement);
  return out;
}

/** A log field's value with every string in it redacted (errors become name, message, code and stack). */
export function redactedValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactCredentials(value);
  // Errors of Node's internals may come from another realm (a test's VM context): known by their tag.
  if (Object.prototype.toString.call(value) === '[object Error]') {
    const error = value as Error & { code?: unknown };
    return {
      name: error.name,
      message: redactCredentials(String(error.message)),
      ...(typeof error.code === 'string' ? { code: error.code } : {}),
      ...(error.stack ? { stack: redactCredentials(error.stack) } : {}),
    };
  }
  if (depth >= 4 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => redactedValue(item, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = redactedValue(item, depth + 1);
  return out;
}
