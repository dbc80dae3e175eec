// The text of a document by its content type: plain text and Markdown as they are, HTML through
// html-to-text (scripts, styles and images left out), PDF through PDF.js in a worker.
import { convert } from 'html-to-text';
import type { DocumentContentType } from '@voice/contracts/knowledge';
import { pdfText } from './pdf-text.js';

/** A document the platform cannot turn into text; the message becomes its failure reason. */
export class DocumentUnreadable extends Error {}

const utf8 = new TextDecoder('utf-8');

export async function extractText(contentType: DocumentContentType, bytes: Uint8Array): Promise<string> {
  switch (contentType) {
    case 'text/plain':
    case 'text/markdown':
      return utf8.decode(bytes);
    case 'text/html':
      return convert(utf8.decode(bytes), {
        wordwrap: false,
        selectors: [
          { selector: 'a', options: { ignoreHref: true } },
          { selector: 'img', format: 'skip' },
          { selector: 'nav', format: 'skip' },
        ],
      });
    case 'application/pdf':
      try {
        return await pdfText(Buffer.from(bytes));
      } catch (error) {
        throw new DocumentUnreadable(error instanceof Error ? error.message : 'the PDF could not be read', { cause: error });
      }
  }
}

const byMediaType: Record<string, DocumentContentType> = {
  'text/plain': 'text/plain',
  'text/markdown': 'text/markdown',
  'text/x-markdown': 'text/markdown',
  'text/html': 'text/html',
  'application/xhtml+xml': 'text/html',
  'application/pdf': 'application/pdf',
};

/** The document type of a fetched answer's Content-Type header; undefined when it is none the platform reads. */
export const contentTypeOf = (header: string | undefined): DocumentContentType | undefined =>
  byMediaType[(header ?? '').split(';')[0]!.trim().toLowerCase()];
