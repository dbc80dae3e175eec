// What a custom domain may be: a public DNS name in canonical form (lower case, ASCII/punycode,
// no trailing dot), never an address, never the platform's own host or a name below it.
import { domainToASCII } from 'node:url';
import { isIP } from 'node:net';

const labelPattern = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

export type DomainNameCheck = { ok: true; domain: string } | { ok: false; issue: string };

export function checkDomainName(input: string, platformHost: string): DomainNameCheck {
  const trimmed = input.trim().replace(/\.$/, '');
  if (trimmed.length === 0 || trimmed.length > 253) return { ok: false, issue: 'must be a domain name of 1 to 253 characters' };
  if (isIP(trimmed.replace(/^\[|\]$/g, ''))) return { ok: false, issue: 'must be a domain name, not an address' };
  // WHATWG URL parsing reads a numeric last label as an IPv4 address; say what is wrong first.
  if (/\.\d+$/.test(trimmed)) return { ok: false, issue: 'must end in a top-level domain, not a number' };
  const domain = domainToASCII(trimmed);
  if (!domain) return { ok: false, issue: 'is not a valid domain name' };
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => labelPattern.test(label))) {
    return { ok: false, issue: 'must be a fully qualified domain name such as voice.example.com' };
  }
  if (domain === 'localhost' || domain.endsWith('.localhost')) return { ok: false, issue: 'must be a public domain name' };
  if (domain === platformHost || domain.endsWith(`.${platformHost}`)) return { ok: false, issue: "must not be the platform's own domain" };
  return { ok: true, domain };
}
