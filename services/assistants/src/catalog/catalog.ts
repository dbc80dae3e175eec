// The CatalogService: the models, transcribers and voices of the shipped catalog, filtered and
// paginated, each with the plans that may use it.
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import { callerOf } from '@voice/runtime/caller';
import { normalisePage, type Page } from '@voice/runtime/validation';
import type { CatalogService, ListModelsRequest, ListVoicesRequest } from '@voice/proto/voice/assistants/v1/catalog';
import type { Catalog } from '../domain/catalog.js';

const pageOf = <T>(items: T[], page: Page): T[] => items.slice(page.offset, page.offset + page.limit);

export class CatalogArea implements ServiceImpl<typeof CatalogService> {
  constructor(private readonly catalog: Catalog) {}

  async listModels(request: ListModelsRequest, context: HandlerContext) {
    callerOf(context);
    const models = this.catalog.models({ kind: request.kind, provider: request.provider, language: request.language });
    return { models: pageOf(models, normalisePage(request.page)), total: models.length, catalogVersion: this.catalog.version };
  }

  async listVoices(request: ListVoicesRequest, context: HandlerContext) {
    callerOf(context);
    const voices = this.catalog.voices({ provider: request.provider, language: request.language });
    return { voices: pageOf(voices, normalisePage(request.page)), total: voices.length, catalogVersion: this.catalog.version };
  }
}
