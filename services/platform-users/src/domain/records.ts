// The DNS records a custom domain needs: a CNAME to the platform, and a TXT record under a fixed
// label that proves the workspace controls the zone.
export interface DnsRecord {
  type: 'CNAME' | 'TXT';
  name: string;
  value: string;
}

export const verificationLabel = '_voice-verification';

export const verificationTxtValue = (token: string): string => `voice-verification=${token}`;

export function requiredRecords(domain: string, token: string, platformHost: string): DnsRecord[] {
  return [
    { type: 'CNAME', name: domain, value: platformHost },
    { type: 'TXT', name: `${verificationLabel}.${domain}`, value: verificationTxtValue(token) },
  ];
}
