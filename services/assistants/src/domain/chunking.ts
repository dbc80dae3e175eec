// How a document's text becomes the chunks that are indexed and answered: paragraphs packed up to
// a size, a paragraph too long split at sentence ends, a sentence too long at word ends; each chunk
// after the first opens with the end of the one before, so a passage cut in two is found whole.
export interface ChunkingOptions {
  /** The longest chunk, in characters. */
  maxChars: number;
  /** How much of the previous chunk the next one repeats, in characters (at word ends). */
  overlapChars: number;
}

export const defaultChunking: ChunkingOptions = { maxChars: 1000, overlapChars: 150 };

/** Lines joined, runs of spaces folded, blank lines kept as paragraph breaks. */
export function normaliseText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Pieces no longer than `max`: at sentence ends if it can, else at spaces, else hard. */
function pieces(paragraph: string, max: number): string[] {
  if (paragraph.length <= max) return [paragraph];
  const sentences = paragraph.match(/[^.!?]+(?:[.!?]+|$)\s*/g) ?? [paragraph];
  const out: string[] = [];
  let current = '';
  for (const sentence of sentences) {
    if (sentence.length > max) {
      if (current) out.push(current.trim());
      current = '';
      for (const word of sentence.split(' ')) {
        for (let start = 0; start < word.length; start += max) {
          const part = word.slice(start, start + max);
          if ((current + ' ' + part).trim().length > max) {
            out.push(current.trim());
            current = part;
          } else current = (current + ' ' + part).trim();
        }
      }
      continue;
    }
    if ((current + sentence).length > max) {
      out.push(current.trim());
      current = sentence;
    } else current += sentence;
  }
  if (current.trim()) out.push(current.trim());
  return out.filter(Boolean);
}

/** The tail of `text` of at most `chars` characters, starting at a word. */
function tail(text: string, chars: number): string {
  if (chars <= 0 || text.length <= chars) return chars <= 0 ? '' : text;
  const cut = text.slice(text.length - chars);
  const space = cut.indexOf(' ');
  return space === -1 ? '' : cut.slice(space + 1);
}

export function chunkText(text: string, options: ChunkingOptions = defaultChunking): string[] {
  const body = options.maxChars - options.overlapChars;
  const paragraphs = normaliseText(text)
    .split('\n\n')
    .flatMap((paragraph) => pieces(paragraph.replace(/\n/g, ' '), body));
  const packed: string[] = [];
  let current = '';
  for (const paragraph of paragraphs) {
    if (current && current.length + 2 + paragraph.length > body) {
      packed.push(current);
      current = paragraph;
    } else current = current ? `${current}\n\n${paragraph}` : paragraph;
  }
  if (current) packed.push(current);
  return packed.map((chunk, index) => {
    const previous = index > 0 ? tail(packed[index - 1]!, options.overlapChars) : '';
    return previous ? `${previous} ${chunk}` : chunk;
  });
}

/** The words of a search query, lower-cased and each once, at most 32 (what the indexes match on). */
export function searchTerms(query: string): string[] {
  return [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].slice(0, 32);
}
