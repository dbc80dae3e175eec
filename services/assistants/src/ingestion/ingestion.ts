// Ingestion of knowledge documents after the answer: each document still processing is fetched
// (a URL, through the egress guard), turned into text, chunked and indexed, then ready; or failed
// with a reason. Woken after every add, and run once at start for documents a stop interrupted;
// replicas may work on the same document, and the store keeps the first result.
import { EgressRefused, guardedRequest, RequestFailed, type EgressPolicy } from '@voice/runtime/egress';
import type { Logger } from '@voice/runtime/logger';
import type { DocumentContentType } from '@voice/contracts/knowledge';
import { chunkText } from '../domain/chunking.js';
import type { IngestionOutcome, KnowledgeStore, PendingDocument } from '../store/store.js';
import { contentTypeOf, DocumentUnreadable, extractText } from './extract.js';

export interface IngestionDeps {
  store: Pick<KnowledgeStore, 'pendingDocuments' | 'completeDocument'>;
  policy: EgressPolicy;
  now: () => Date;
  logger: Logger;
  fetchTimeoutMs?: number;
}

export class Ingestion {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(private readonly deps: IngestionDeps) {}

  /** Starts a pass over the waiting documents, or another one after the pass under way. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((error: unknown) => this.deps.logger.error('ingestion pass failed', { error }))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Resolves when no pass is under way (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.idle();
  }

  private async drain(): Promise<void> {
    const tried = new Set<string>();
    while (!this.stopped) {
      const pending = (await this.deps.store.pendingDocuments(10)).filter((entry) => !tried.has(entry.document.id));
      if (pending.length === 0) return;
      for (const entry of pending) {
        tried.add(entry.document.id);
        const outcome = await this.ingest(entry);
        await this.deps.store.completeDocument(entry.document.id, outcome, this.deps.now().toISOString());
      }
    }
  }

  private async ingest({ document, content }: PendingDocument): Promise<IngestionOutcome> {
    try {
      const fetched = document.source === 'url' ? await this.fetch(document.url!, document.maxBytes) : undefined;
      const bytes = fetched?.bytes ?? content ?? new Uint8Array();
      const contentType = fetched?.contentType ?? (document.contentType as DocumentContentType);
      const chunks = chunkText(await extractText(contentType, bytes));
      if (chunks.length === 0) return { failure: 'the document holds no text' };
      return { chunks, sizeBytes: bytes.byteLength, contentType };
    } catch (error) {
      if (error instanceof DocumentUnreadable) return { failure: error.message };
      if (error instanceof RequestFailed) return { failure: error.message };
      if (error instanceof EgressRefused) return { failure: 'the address is private or reserved, so it was not fetched' };
      this.deps.logger.error('document ingestion failed', { error, document_id: document.id });
      return { failure: 'the document could not be processed' };
    }
  }

  private async fetch(url: string, maxBytes: number): Promise<{ bytes: Uint8Array; contentType: DocumentContentType }> {
    const response = await guardedRequest({
      method: 'GET',
      url,
      headers: { accept: 'text/html, text/plain, text/markdown, application/pdf;q=0.9, */*;q=0.1' },
      timeoutMs: this.deps.fetchTimeoutMs ?? 30_000,
      policy: this.deps.policy,
      maxBodyBytes: maxBytes + 1,
      logger: this.deps.logger,
    });
    if (response.status < 200 || response.status >= 300) throw new DocumentUnreadable(`the address answered with HTTP status ${response.status}`);
    if (response.truncated) throw new DocumentUnreadable(`the document is larger than the plan allows (${maxBytes} bytes)`);
    const contentType = contentTypeOf(response.headers['content-type']);
    if (!contentType) throw new DocumentUnreadable(`the content type ${response.headers['content-type'] ?? '(none)'} is not one the platform reads`);
    return { bytes: response.bytes, contentType };
  }
}
