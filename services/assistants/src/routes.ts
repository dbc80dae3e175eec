// The one registration point of the assistants service's Connect routes: one service per area,
// each a class that takes the store part it uses.
import type { ConnectRouter } from '@connectrpc/connect';
import { AssistantsService } from '@voice/proto/voice/assistants/v1/assistants';
import { CatalogService } from '@voice/proto/voice/assistants/v1/catalog';
import { AssistantVersionsService } from '@voice/proto/voice/assistants/v1/versions';
import type { ProviderKeyTester } from './inference/provider-key-test.js';
import type { Ingestion } from './ingestion/ingestion.js';
import { KnowledgeArea } from './knowledge/knowledge.js';
import type { Client } from '@connectrpc/connect';
import type { CallerSigner } from '@voice/runtime/caller';
import { monotonicClock } from '@voice/runtime/time';
import type { EmailSenderService } from '@voice/proto/voice/platform/v1/email';
import type { TelephonyService } from '@voice/proto/voice/telephony/v1/telephony';
import type { ToolsService } from '@voice/proto/voice/tools/v1/tools';
import { ToolSecrets } from '@voice/contracts/tool-secrets';
import type { SecretBox } from '@voice/runtime/crypto';
import { KnowledgeService } from '@voice/proto/voice/assistants/v1/knowledge';
import { SettingsService } from '@voice/proto/voice/assistants/v1/settings';
import type { EgressPolicy } from '@voice/runtime/egress';
import { Catalog } from './domain/catalog.js';
import { AssistantSecrets } from './domain/secrets.js';
import { Assistants } from './assistants/assistants.js';
import { CatalogArea } from './catalog/catalog.js';
import { Configurations } from './assistants/configurations.js';
import { References } from './assistants/references.js';
import { SettingsArea } from './settings/settings.js';
import { Versions } from './assistants/versions.js';
import type { AssistantStore, AssistantVersionStore, KnowledgeStore, SettingsStore } from './store/store.js';

export const assistantsServiceNames = [AssistantsService.typeName, AssistantVersionsService.typeName, CatalogService.typeName, SettingsService.typeName, KnowledgeService.typeName];

export interface AssistantsRoutesDeps {
  store: AssistantStore & AssistantVersionStore & SettingsStore & KnowledgeStore;
  /** Seals the secrets of builtin tool items and the provider keys. */
  box: SecretBox;
  keyTester: ProviderKeyTester;
  /** Ingests knowledge documents after the answer. */
  ingestion: Pick<Ingestion, 'wake'>;
  /** Where documents may be fetched from (the key tests are guarded by the tester's own). */
  policy: EgressPolicy;
  /** The services whose resources assistants and the references to them are checked against. */
  tools: Client<typeof ToolsService>;
  telephony: Client<typeof TelephonyService>;
  emailSenders: Client<typeof EmailSenderService>;
  /** Signs the calls made to them. */
  signer: CallerSigner;
  catalog?: Catalog;
  now?: () => Date;
}

export const assistantsRoutes = (deps: AssistantsRoutesDeps) => (router: ConnectRouter) => {
  const catalog = deps.catalog ?? Catalog.shipped();
  const secrets = new AssistantSecrets(new ToolSecrets(deps.box));
  const configurations = new Configurations(catalog, secrets);
  const now = deps.now ?? monotonicClock();
  const references = new References({ tools: deps.tools, telephony: deps.telephony, emailSenders: deps.emailSenders, signer: deps.signer, assistants: deps.store, knowledge: deps.store });
  router.service(AssistantsService, new Assistants({ store: deps.store, settings: deps.store, configurations, secrets, references, now }));
  router.service(AssistantVersionsService, new Versions({ assistants: deps.store, versions: deps.store, settings: deps.store, configurations, secrets, references, now }));
  router.service(CatalogService, new CatalogArea(catalog));
  router.service(KnowledgeService, new KnowledgeArea({ store: deps.store, assistants: deps.store, ingestion: deps.ingestion, policy: deps.policy, now }));
  router.service(SettingsService, new SettingsArea({ store: deps.store, box: deps.box, catalog, keyTester: deps.keyTester, now }));
};
