// Asks a model provider whether it accepts an API key: one authenticated GET of its model list,
// through the egress guard, answered as valid, invalid (401/403), provider_error (any other
// answer) or the reason no answer came. The key travels only to the provider's configured origin.
import { guardedRequest, RequestFailed, type EgressPolicy } from '@voice/runtime/egress';
import type { Logger } from '@voice/runtime/logger';
import type { InferenceProvider } from '@voice/contracts/settings';

export type ProviderKeyResult = 'valid' | 'invalid' | 'provider_error' | RequestFailed['code'];

export interface ProviderKeyOutcome {
  result: ProviderKeyResult;
  message: string;
  providerStatus: number;
  durationMs: number;
}

/** The request that proves a key, per provider (each one's documented "list models" call). */
const probes: Record<InferenceProvider, (base: string, key: string) => { url: string; headers: Record<string, string> }> = {
  openai: (base, key) => ({ url: `${base}/v1/models`, headers: { authorization: `Bearer ${key}` } }),
  anthropic: (base, key) => ({ url: `${base}/v1/models`, headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' } }),
  google: (base, key) => ({ url: `${base}/v1beta/models`, headers: { 'x-goog-api-key': key } }),
};

export interface ProviderKeyTesterOptions {
  /** Each provider's API origin (configuration; a loopback double in tests). */
  urls: Record<InferenceProvider, string>;
  policy: EgressPolicy;
  timeoutMs?: number;
  logger?: Logger;
}

export class ProviderKeyTester {
  constructor(private readonly options: ProviderKeyTesterOptions) {}

  /** Throws EgressRefused when the provider's address is one the guard refuses. */
  async test(provider: InferenceProvider, key: string): Promise<ProviderKeyOutcome> {
    const started = performance.now();
    const durationMs = () => Math.round(performance.now() - started);
    const probe = probes[provider](this.options.urls[provider].replace(/\/+$/, ''), key);
    try {
      const response = await guardedRequest({
        method: 'GET',
        url: probe.url,
        headers: { ...probe.headers, accept: 'application/json' },
        timeoutMs: this.options.timeoutMs ?? 10_000,
        policy: this.options.policy,
        // A redirect would carry the key elsewhere: the answer is judged as it comes.
        redirect: 'manual',
        maxBodyBytes: 16_384,
        logger: this.options.logger,
      });
      if (response.status >= 200 && response.status < 300) return { result: 'valid', message: 'the provider accepted the key', providerStatus: response.status, durationMs: durationMs() };
      if (response.status === 401 || response.status === 403) {
        return { result: 'invalid', message: 'the provider refused the key', providerStatus: response.status, durationMs: durationMs() };
      }
      return { result: 'provider_error', message: `the provider answered with HTTP status ${response.status}`, providerStatus: response.status, durationMs: durationMs() };
    } catch (error) {
      if (error instanceof RequestFailed) return { result: error.code, message: error.message, providerStatus: 0, durationMs: durationMs() };
      throw error;
    }
  }
}
