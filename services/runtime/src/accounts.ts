// The rules for a user's e-mail, name and password, shared by identity (which enforces them) and
// the gateway (which validates request bodies with them).

export const passwordLength = { min: 10, max: 200 } as const;
export const maxNameLength = 200;
export const maxEmailLength = 254;

/** E-mails are compared trimmed and lower-cased. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

/** A local part, an @, and a domain of at least two non-empty labels; 254 characters at most. */
const emailPattern = /^[^\s@]{1,64}@[^\s@.]+(\.[^\s@.]+)+$/;

export function emailIssue(email: string): string | undefined {
  return email.length <= maxEmailLength && emailPattern.test(email) ? undefined : 'must be a valid e-mail address';
}

export function passwordIssue(password: string): string | undefined {
  const length = [...password].length;
  return length >= passwordLength.min && length <= passwordLength.max
    ? undefined
    : `must be ${passwordLength.min} to ${passwordLength.max} characters`;
}

export function nameIssue(name: string): string | undefined {
  return name.length <= maxNameLength ? undefined : `must be at most ${maxNameLength} characters`;
}

/** The name of a user created without one: the e-mail's local part. */
export const defaultName = (email: string): string => email.slice(0, email.lastIndexOf('@'));
