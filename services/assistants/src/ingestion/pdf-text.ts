// The text of a PDF, extracted by PDF.js (through unpdf) in a worker thread of its own: a document
// from a stranger may be slow or hostile to parse, so it gets a memory ceiling and a deadline, and
// the service's event loop never waits on it.
import { Worker } from 'node:worker_threads';

export class PdfUnreadable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PdfUnreadable';
  }
}

export interface PdfTextOptions {
  timeoutMs?: number;
  maxMemoryMb?: number;
}

// Plain JavaScript run by the worker. It loads unpdf by the path resolved here, so the worker finds
// the same package however this file was loaded (compiled, or from source in the tests).
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const { extractText, getDocumentProxy } = require(workerData.unpdf);
(async () => {
  const pdf = await getDocumentProxy(new Uint8Array(workerData.bytes));
  const { text } = await extractText(pdf, { mergePages: true });
  parentPort.postMessage({ text });
})().catch((error) => parentPort.postMessage({ error: String((error && error.message) || error) }));
`;

/** The document's text, pages joined; PdfUnreadable when it is not a PDF the parser can read in time. */
export function pdfText(bytes: Buffer, options: PdfTextOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerSource, {
      eval: true,
      workerData: { unpdf: require.resolve('unpdf'), bytes },
      resourceLimits: { maxOldGenerationSizeMb: options.maxMemoryMb ?? 256 },
      // PDF.js reports repairs of broken files on the console: kept out of the service's output.
      stdout: true,
      stderr: true,
    });
    worker.stdout.resume();
    worker.stderr.resume();
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      outcome();
    };
    const timer = setTimeout(() => settle(() => reject(new PdfUnreadable('the PDF took too long to read'))), options.timeoutMs ?? 30_000);
    worker.once('message', (message: { text?: string; error?: string }) =>
      settle(() => (message.text !== undefined ? resolve(message.text) : reject(new PdfUnreadable(`the PDF could not be read: ${message.error ?? 'unknown error'}`)))),
    );
    worker.once('error', (error) => settle(() => reject(new PdfUnreadable(`the PDF could not be read: ${error.message}`))));
    worker.once('exit', (code) => settle(() => reject(new PdfUnreadable(`the PDF reader stopped (exit code ${code})`))));
  });
}
