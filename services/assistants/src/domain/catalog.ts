// The catalog of models, transcribers and voices (shipped as versioned data in catalog.json), its
// filters, and the rule that an assistant uses only entries that exist and that its workspace's
// plan includes: an unknown entry is a field issue (400), one outside the plan a refusal (403).
import type { Plan } from '@voice/runtime/access';
import type { FieldIssue } from '@voice/runtime/errors';
import type { AssistantConfig } from '@voice/contracts/assistants';
import data from '../catalog/catalog.json';

export interface CatalogModel {
  kind: 'llm' | 'transcriber';
  provider: string;
  id: string;
  name: string;
  /** Language tags it handles; `*` is every language. */
  languages: string[];
  plans: Plan[];
}

export interface CatalogVoice {
  provider: string;
  id: string;
  name: string;
  languages: string[];
  gender: 'female' | 'male' | 'neutral';
  plans: Plan[];
}

export interface CatalogData {
  version: string;
  models: CatalogModel[];
  voices: CatalogVoice[];
}

export interface CatalogFilter {
  kind?: string;
  provider?: string;
  language?: string;
}

/** What the catalog says of a configuration: the fields naming unknown entries, and those the plan lacks. */
export interface CatalogVerdict {
  unknown: FieldIssue[];
  outsidePlan: FieldIssue[];
}

const primary = (tag: string): string => tag.split('-')[0]!;

/** `en-US` is served by an entry for `en-US`, `en` or every language; `en` by any `en` entry. */
const speaks = (languages: readonly string[], tag: string): boolean =>
  languages.some((language) => language === '*' || language === tag || language === primary(tag) || primary(language) === tag);

export class Catalog {
  constructor(private readonly data: CatalogData) {}

  /** The catalog the service ships. */
  static shipped(): Catalog {
    return new Catalog(data as CatalogData);
  }

  get version(): string {
    return this.data.version;
  }

  models(filter: CatalogFilter): CatalogModel[] {
    return this.data.models.filter(
      (model) =>
        (filter.kind === undefined || model.kind === filter.kind) &&
        (filter.provider === undefined || model.provider === filter.provider) &&
        (filter.language === undefined || speaks(model.languages, filter.language)),
    );
  }

  voices(filter: CatalogFilter): CatalogVoice[] {
    return this.data.voices.filter(
      (voice) =>
        (filter.provider === undefined || voice.provider === filter.provider) &&
        (filter.language === undefined || speaks(voice.languages, filter.language)),
    );
  }

  /** Whether a language model exists and the plan includes it, as the verdict on a configuration says it of `field`. */
  languageModelVerdict(provider: string, id: string, plan: Plan, field: string): CatalogVerdict {
    const entry = this.models({ kind: 'llm', provider }).find((model) => model.id === id);
    if (!entry) return { unknown: [{ field, issue: 'is not a language model of the catalog (see GET /catalog/models)' }], outsidePlan: [] };
    return { unknown: [], outsidePlan: entry.plans.includes(plan) ? [] : [{ field, issue: `the ${plan} plan does not include this language model` }] };
  }

  /** Checks the model, transcriber and voice of a configuration against the catalog and the plan. */
  verdict(config: AssistantConfig, plan: Plan): CatalogVerdict {
    const verdict = this.languageModelVerdict(config.model.provider, config.model.model, plan, 'model.model');
    const judge = (entry: { plans: Plan[]; languages: string[] } | undefined, field: string, what: string, language?: string) => {
      if (!entry) verdict.unknown.push({ field, issue: `is not a ${what} of the catalog (see GET /catalog/models and GET /voices)` });
      else if (!entry.plans.includes(plan)) verdict.outsidePlan.push({ field, issue: `the ${plan} plan does not include this ${what}` });
      else if (language !== undefined && !speaks(entry.languages, language)) {
        verdict.unknown.push({ field, issue: `this ${what} does not support the language ${language}` });
      }
    };
    const find = <T extends { provider: string; id: string }>(entries: T[], provider: string, id: string) =>
      entries.find((entry) => entry.provider === provider && entry.id === id);
    const transcriberLanguage = config.transcriber.language ?? config.language;
    judge(
      find(this.models({ kind: 'transcriber' }), config.transcriber.provider, config.transcriber.model),
      'transcriber.model',
      'transcriber',
      transcriberLanguage,
    );
    judge(find(this.data.voices, config.voice.provider, config.voice.voice_id), 'voice.voice_id', 'voice', config.language);
    return verdict;
  }
}
