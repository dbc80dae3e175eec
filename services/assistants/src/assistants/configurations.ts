// Turns a configuration as sent into the one stored: validated whole by the contract, checked
// against the catalog for the workspace's plan, its secrets sealed. Creates, updates and restores
// all pass through here, so no write can store what a create would refuse.
import type { JsonObject } from '@bufbuild/protobuf';
import { isPlan, type Plan } from '@voice/runtime/access';
import { invalidRequest, serviceError } from '@voice/runtime/errors';
import type { Catalog } from '../domain/catalog.js';
import { checkedConfig } from '../domain/configuration.js';
import type { AssistantSecrets } from '../domain/secrets.js';

/** The plan the gateway authenticated; a caller that names none (another service) is held to the smallest. */
export const planOf = (sent: string): Plan => (isPlan(sent) ? sent : 'starter');

export class Configurations {
  constructor(
    private readonly catalog: Catalog,
    private readonly secrets: AssistantSecrets,
  ) {}

  /**
   * The configuration to store: `sent` over `base` (the defaults, or the stored configuration,
   * whose secrets are sealed already), or the 400 / 403 that refuses it. Only secrets sent are
   * sealed; a mask among them keeps what `base` holds at that place.
   */
  prepare(base: JsonObject, sent: JsonObject, plan: Plan, allowedProviders: readonly string[]): { name: string; config: JsonObject } {
    const checked = checkedConfig({ ...base, ...sent });
    if (!checked.ok) throw invalidRequest(checked.issues);
    if (!allowedProviders.includes(checked.config.model.provider)) {
      throw invalidRequest([{ field: 'model.provider', issue: 'is not among the providers the workspace allows (settings/ai-inference)' }]);
    }
    const verdict = this.catalog.verdict(checked.config, plan);
    if (verdict.unknown.length > 0) throw invalidRequest(verdict.unknown);
    if (verdict.outsidePlan.length > 0) {
      throw serviceError('forbidden', verdict.outsidePlan.map((f) => `${f.field}: ${f.issue}`).join('; '), { fields: verdict.outsidePlan });
    }
    const config = checked.config as JsonObject;
    if (!('builtin_tools' in sent)) return { name: checked.config.name, config };
    const sealed = this.secrets.seal(config, base);
    if (sealed.issues.length > 0) throw invalidRequest(sealed.issues);
    return { name: checked.config.name, config: sealed.config };
  }

  /**
   * Refuses a stored configuration that today's provider settings, catalog or plan no longer allow
   * (a call runs the assistant as it is stored): 403 for what the plan or the settings exclude, 409
   * for what the catalog no longer has or the rules no longer accept (the assistant needs an update).
   */
  checkRunnable(config: JsonObject, plan: Plan, allowedProviders: readonly string[]): void {
    const checked = checkedConfig(config);
    if (!checked.ok) throw serviceError('conflict', "the assistant's configuration no longer passes validation; update the assistant first");
    if (!allowedProviders.includes(checked.config.model.provider)) {
      throw serviceError('forbidden', "the assistant's model provider is not among the providers the workspace allows (settings/ai-inference)");
    }
    const verdict = this.catalog.verdict(checked.config, plan);
    const described = (issues: { field: string; issue: string }[]) => issues.map((f) => `${f.field}: ${f.issue}`).join('; ');
    if (verdict.outsidePlan.length > 0) throw serviceError('forbidden', `the assistant cannot run on this plan (${described(verdict.outsidePlan)})`);
    if (verdict.unknown.length > 0) throw serviceError('conflict', `the assistant uses what the catalog no longer offers (${described(verdict.unknown)})`);
  }
}
