// NATS subject patterns ("*" one token, ">" the rest) for the in-process stream and client-side filters.

/** True when the concrete `subject` matches `pattern`. */
export function subjectMatches(pattern: string, subject: string): boolean {
  const wanted = pattern.split('.');
  const tokens = subject.split('.');
  for (let i = 0; i < wanted.length; i += 1) {
    const token = wanted[i];
    if (token === '>') return tokens.length > i;
    if (i >= tokens.length) return false;
    if (token !== '*' && token !== tokens[i]) return false;
  }
  return wanted.length === tokens.length;
}

/** True when some concrete subject matches both patterns. */
export function subjectsOverlap(a: string, b: string): boolean {
  const left = a.split('.');
  const right = b.split('.');
  for (let i = 0; i < Math.max(left.length, right.length); i += 1) {
    const l = left[i];
    const r = right[i];
    if (l === '>' || r === '>') return l !== undefined && r !== undefined;
    if (l === undefined || r === undefined) return false;
    if (l !== '*' && r !== '*' && l !== r) return false;
  }
  return true;
}

export const matchesAny = (patterns: readonly string[], subject: string): boolean =>
  patterns.some((pattern) => subjectMatches(pattern, subject));
