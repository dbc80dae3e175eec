// The platform's durable streams and their subjects, named in one place: producers and
// consumers both ensure a stream with exactly this definition before they use it.

export interface StreamDefinition {
  name: string;
  subjects: string[];
}

/** Usage events (voice.billing.v1.UsageEvent) from every producer, consumed by billing. */
export const usageStream: StreamDefinition = { name: 'USAGE', subjects: ['usage.>'] };

/** Balance changes (voice.billing.v1.WalletChanged) published by billing for whoever follows wallets. */
export const walletStream: StreamDefinition = { name: 'WALLETS', subjects: ['billing.wallets.>'] };

/** Call legs' progress (voice.telephony.v1.CallLegChanged) published by telephony, consumed by calls. */
export const callLegStream: StreamDefinition = { name: 'CALL_LEGS', subjects: ['telephony.call_legs.>'] };

export const callLegChangedSubject = 'telephony.call_legs.changed';

/** Calls answered and calls ended and charged (voice.calls.v1.CallChanged), published by the calls service. */
export const callStream: StreamDefinition = { name: 'CALLS', subjects: ['calls.calls.>'] };

export const callStartedSubject = 'calls.calls.started';
export const callEndedSubject = 'calls.calls.ended';

/** What happens to SMS and numbers, as users hear of it (voice.telephony.v1 events.proto), published by telephony. */
export const telephonyEventStream: StreamDefinition = { name: 'TELEPHONY_EVENTS', subjects: ['telephony.events.>'] };

export const smsStatusChangedSubject = 'telephony.events.sms_status';

export const numberBillingChangedSubject = 'telephony.events.number_billing';

/** Dial jobs of running campaigns (one per lead attempt): a work queue the dialer replicas share. */
export const dialJobStream: StreamDefinition = { name: 'DIAL_JOBS', subjects: ['campaigns.dial.>'] };

export const dialJobSubject = 'campaigns.dial.jobs';

/** Callbacks due soon (one job per callback), on the dial jobs' stream with a consumer of their own. */
export const callbackJobSubject = 'campaigns.dial.callbacks';

/** What happens to campaigns, as users hear of it (voice.campaigns.v1 events.proto), published by the campaigns dialer. */
export const campaignStream: StreamDefinition = { name: 'CAMPAIGNS', subjects: ['campaigns.campaigns.>'] };

export const campaignCompletedSubject = 'campaigns.campaigns.completed';

/** usage.<producer>.<kind>, e.g. usage.telephony.sms. */
export const usageSubject = (producer: string, kind: string): string => `usage.${producer}.${kind}`;

export const walletChangedSubject = 'billing.wallets.changed';

/** Durable consumer names: one position per consuming service, shared by its replicas. */
export const durableNames = {
  billingUsage: 'billing-usage',
  campaignsCalls: 'campaigns-calls',
  campaignsDialer: 'campaigns-dialer',
  campaignsCallbacks: 'campaigns-callbacks',
  callsLegs: 'calls-legs',
  callsWallets: 'calls-wallets',
  callsSummaryEmails: 'calls-summary-emails',
  webhooksCalls: 'webhooks-calls',
  webhooksCampaigns: 'webhooks-campaigns',
  webhooksTelephony: 'webhooks-telephony',
  webhooksWallets: 'webhooks-wallets',
} as const;
