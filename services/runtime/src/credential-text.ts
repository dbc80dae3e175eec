// Credentials inside the text of a log line, whatever field carries them (log-redaction.ts
// handles fields named for a credential): our svc_ credentials, authorization values, the user
// part of a URL, query strings and invitation tokens in paths. The logger passes every string it
// writes through here, error messages and stacks included, so a library's message that quotes a
// URL cannot leak one either.

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

/** Errors of Node's internals may come from another realm (a test's VM context): known by their tag. */
export const isError = (value: unknown): value is Error => Object.prototype.toString.call(value) === '[object Error]';

/** A value with every string in it redacted, to a few levels of plain objects and arrays. */
export function redactedText(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactCredentials(value);
  if (depth >= 4 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => redactedText(item, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = redactedText(item, depth + 1);
  return out;
}
