// A lead as the proto carries it, back to the JSON shape the contract's schemas check.
import { definedFields } from '@voice/runtime/validation';
import type { LeadInput } from '@voice/proto/voice/campaigns/v1/campaigns';

export const leadBody = (lead: LeadInput | undefined): Record<string, unknown> =>
  definedFields({ phone: lead?.phone, name: lead?.name, variables: lead?.variables, time_zone: lead?.timeZone });
