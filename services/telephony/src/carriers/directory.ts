// Which carrier serves what: the platform's own carrier for marketplace numbers, a workspace's
// connection for imported ones. Credentials are opened only here, just before use.
import { randomBase62, type SecretBox } from '@voice/runtime/crypto';
import type { PlatformCarrierConfig } from '../config.js';
import type { ConnectionRecord, NumberRecord } from '../store/store.js';
import type { CarrierAccount, CarrierAdapter, NumberVoiceRoute } from './carrier.js';

/** The callback path segment that stands for the platform's own carrier. */
export const platformConnectionKey = 'platform';

/** Builds an adapter for an account; `connectionId` is null for the platform's carrier. */
export type AdapterFactory = (account: CarrierAccount, connectionId: string | null) => CarrierAdapter;

export interface CarrierRoute {
  adapter: CarrierAdapter;
  connectionId: string | null;
}

export class CarrierDirectory {
  private platformAdapter: CarrierAdapter | undefined;
  /** Adapters by connection id and revision (updatedAt), so a changed credential gets a new one. */
  private readonly adapters = new Map<string, { updatedAt: string; adapter: CarrierAdapter }>();

  constructor(
    private readonly options: {
      platform: PlatformCarrierConfig;
      box: SecretBox;
      publicUrl: string;
      build: AdapterFactory;
    },
  ) {}

  /**
   * Sandbox connections exist for development: on a platform with a real carrier they would let
   * anyone claim real numbers (the sandbox holds every number) and keep their owners out.
   */
  sandboxConnectionsAllowed(): boolean {
    return this.options.platform.provider === 'sandbox';
  }

  platform(): CarrierAdapter {
    this.platformAdapter ??= this.options.build(this.platformAccount(), null);
    return this.platformAdapter;
  }

  forConnection(connection: ConnectionRecord): CarrierAdapter {
    const cached = this.adapters.get(connection.id);
    if (cached && cached.updatedAt === connection.updatedAt) return cached.adapter;
    const adapter = this.options.build(this.accountOf(connection), connection.id);
    this.adapters.set(connection.id, { updatedAt: connection.updatedAt, adapter });
    return adapter;
  }

  /** The carrier of a number whose connection (for imported numbers) is already loaded. */
  forNumber(number: NumberRecord, connection: ConnectionRecord | undefined): CarrierRoute | undefined {
    if (number.source === 'marketplace') return { adapter: this.platform(), connectionId: null };
    return connection ? { adapter: this.forConnection(connection), connectionId: connection.id } : undefined;
  }

  /** Where a carrier posts status callbacks for a connection (null: the platform's carrier). */
  callbackUrl(connectionId: string | null): string {
    return `${this.options.publicUrl}/webhooks/carriers/${connectionId ?? platformConnectionKey}`;
  }

  /** Where an HTTP carrier sends the inbound calls of a number of the connection (null: the platform's carrier), and their progress. */
  numberVoiceRoute(connectionId: string | null): NumberVoiceRoute {
    const voice = `${this.callbackUrl(connectionId)}/voice`;
    return { voiceUrl: voice, statusCallbackUrl: `${voice}/status` };
  }

  /** Where an HTTP carrier fetches a leg's instructions (TwiML) and posts its progress. */
  callUrls(connectionId: string | null, legId: string): { instructionsUrl: string; statusCallbackUrl: string; recordingStatusCallbackUrl: string } {
    const leg = `${this.callbackUrl(connectionId)}/calls/${legId}`;
    return { instructionsUrl: `${leg}/twiml`, statusCallbackUrl: `${leg}/status`, recordingStatusCallbackUrl: `${leg}/recording` };
  }

  accountSidOf(connection: ConnectionRecord): string {
    return this.options.box.open(connection.sealedAccountSid);
  }

  /** Stops what adapters keep running (the sandbox's pending delivery reports). */
  close(): void {
    const adapters = [this.platformAdapter, ...[...this.adapters.values()].map((entry) => entry.adapter)];
    for (const adapter of adapters) (adapter as { close?: () => void } | undefined)?.close?.();
    this.adapters.clear();
    this.platformAdapter = undefined;
  }

  private accountOf(connection: ConnectionRecord): CarrierAccount {
    const accountSid = this.accountSidOf(connection);
    const authToken = this.options.box.open(connection.sealedAuthToken);
    return connection.provider === 'sandbox'
      ? { provider: 'sandbox', accountSid, authToken }
      : { provider: 'twilio', baseUrl: connection.baseUrl, accountSid, authToken };
  }

  private platformAccount(): CarrierAccount {
    const platform = this.options.platform;
    // The built-in sandbox reports deliveries in-process; a token nobody knows makes every
    // callback that claims to come from it fail verification.
    return platform.provider === 'sandbox' ? { provider: 'sandbox', accountSid: 'platform', authToken: randomBase62(40) } : { ...platform };
  }
}
