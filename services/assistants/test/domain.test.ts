// The assistants service's pure rules: the catalog's filters and its verdict per plan, which
// fields differ between versions, how builtin tool secrets are sealed, masked and kept, and how
// documents are chunked and queries split into search terms.
import { randomBytes } from 'node:crypto';
import type { JsonObject } from '@bufbuild/protobuf';
import { assistantConfigSchema, assistantDefaults, type AssistantConfig } from '@voice/contracts/assistants';
import { secretMask } from '@voice/contracts/tools';
import { ToolSecrets } from '@voice/contracts/tool-secrets';
import { SecretBox } from '@voice/runtime/crypto';
import { Catalog } from '../src/domain/catalog.js';
import { chunkText, searchTerms } from '../src/domain/chunking.js';
import { changedFields, checkedConfig } from '../src/domain/configuration.js';
import { AssistantSecrets } from '../src/domain/secrets.js';

const config = (overrides: Partial<Record<keyof AssistantConfig, unknown>> = {}): AssistantConfig =>
  assistantConfigSchema.parse({ ...assistantDefaults, name: 'A', ...overrides });

describe('catalog', () => {
  const catalog = Catalog.shipped();

  test('ships a version and filters by kind, provider and language (primary tags match regions)', () => {
    expect(catalog.version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(catalog.models({ kind: 'transcriber' }).every((m) => m.kind === 'transcriber')).toBe(true);
    expect(catalog.models({ provider: 'anthropic' }).map((m) => m.id)).toEqual(['claude-haiku-4-5', 'claude-sonnet-4-5']);
    expect(catalog.voices({ language: 'de' }).map((v) => v.id)).toContain('de-DE-KatjaNeural');
    expect(catalog.voices({ language: 'de-AT' }).map((v) => v.id)).not.toContain('de-DE-KatjaNeural');
    expect(catalog.voices({ language: 'en-GB' }).map((v) => v.id)).toEqual(expect.arrayContaining(['alloy', 'en-GB-RyanNeural']));
  });

  test('the defaults pass on every plan', () => {
    for (const plan of ['starter', 'pro', 'enterprise'] as const) expect(catalog.verdict(config(), plan)).toEqual({ unknown: [], outsidePlan: [] });
  });

  test('unknown entries and unsupported languages are field issues; entries outside the plan are refusals', () => {
    const unknown = catalog.verdict(config({ model: { provider: 'openai', model: 'gpt-9' }, voice: { provider: 'acme', voice_id: 'x' } }), 'enterprise');
    expect(unknown.unknown.map((issue) => issue.field)).toEqual(['model.model', 'voice.voice_id']);
    const language = catalog.verdict(config({ language: 'ko', transcriber: { provider: 'deepgram', model: 'nova-3' } }), 'pro');
    expect(language.unknown).toEqual([{ field: 'transcriber.model', issue: 'this transcriber does not support the language ko' }]);
    expect(catalog.verdict(config({ language: 'ko', transcriber: { provider: 'deepgram', model: 'nova-3', language: 'en' } }), 'pro').unknown).toEqual([]);
    const premium = catalog.verdict(config({ model: { provider: 'google', model: 'gemini-2.5-pro' } }), 'pro');
    expect(premium).toEqual({ unknown: [], outsidePlan: [{ field: 'model.model', issue: 'the pro plan does not include this language model' }] });
  });
});

describe('configuration', () => {
  test('a whole configuration gets its nested defaults; a bad one names its fields', () => {
    const checked = checkedConfig({ ...(assistantDefaults as JsonObject), name: 'A', end_call: { phrases: ['bye'] } });
    expect(checked.ok && checked.config.end_call).toEqual({ max_duration_seconds: 1800, silence_timeout_seconds: 30, phrases: ['bye'] });
    const bad = checkedConfig({ ...(assistantDefaults as JsonObject), name: '', voice: { provider: 'openai' } });
    expect(!bad.ok && bad.issues.map((issue) => issue.field)).toEqual(['name', 'voice.voice_id']);
  });

  test('changed fields: sections key by key, everything else whole, every field for a first version', () => {
    const before = config() as unknown as JsonObject;
    const after = config({ model: { provider: 'openai', model: 'gpt-4o-mini', temperature: 0.2 }, tool_ids: [], builtin_tools: [{ type: 'end_call' }] }) as unknown as JsonObject;
    expect(changedFields(before, after)).toEqual(['model.temperature', 'builtin_tools']);
    expect(changedFields(before, before)).toEqual([]);
    expect(changedFields(undefined, before)).toEqual(Object.keys(before));
    const { metadata: _, ...without } = before;
    expect(changedFields(before, without)).toEqual(['metadata']);
  });
});

describe('builtin tool secrets', () => {
  const secrets = new AssistantSecrets(new ToolSecrets(new SecretBox(randomBytes(32))));
  const transfer = (destination: string, value: string) => ({ type: 'call_transfer', destination, sip_headers: { 'X-Key': value } });

  test('sealed at rest, masked on the way out', () => {
    const { config: sealed, issues } = secrets.seal({ name: 'A', builtin_tools: [transfer('+14155550123', 'plain'), { type: 'end_call' }] }, undefined);
    expect(issues).toEqual([]);
    const stored = (sealed.builtin_tools as JsonObject[])[0]!.sip_headers as JsonObject;
    expect(SecretBox.isSealed(stored['X-Key'])).toBe(true);
    expect(secrets.mask(sealed)).toEqual({ name: 'A', builtin_tools: [transfer('+14155550123', secretMask), { type: 'end_call' }] });
  });

  test('the mask keeps the stored item’s secret, found by type and destination wherever it moved', () => {
    const stored = secrets.seal({ builtin_tools: [{ type: 'end_call' }, transfer('+14155550123', 'plain')] }, undefined).config;
    const storedValue = ((stored.builtin_tools as JsonObject[])[1]!.sip_headers as JsonObject)['X-Key'];
    const moved = secrets.seal({ builtin_tools: [transfer('+14155550123', secretMask)] }, stored);
    expect(moved.issues).toEqual([]);
    expect(((moved.config.builtin_tools as JsonObject[])[0]!.sip_headers as JsonObject)['X-Key']).toBe(storedValue);
    const elsewhere = secrets.seal({ builtin_tools: [transfer('+14155550999', secretMask)] }, stored);
    expect(elsewhere.issues).toEqual([{ field: 'builtin_tools.0.sip_headers.X-Key', issue: 'is the mask, but no secret is stored there' }]);
  });
});

describe('chunking', () => {
  test('paragraphs are packed up to the size; each chunk repeats the end of the one before', () => {
    const paragraphs = Array.from({ length: 6 }, (_, i) => `Paragraph ${i} ${'word '.repeat(30).trim()}.`);
    const chunks = chunkText(paragraphs.join('\n\n'), { maxChars: 400, overlapChars: 40 });
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.every((chunk) => chunk.length <= 400)).toBe(true);
    for (const paragraph of paragraphs) expect(chunks.some((chunk) => chunk.includes(paragraph))).toBe(true);
    expect(chunks[1]!.startsWith('word')).toBe(true);
  });

  test('a paragraph too long is cut at sentence ends, a sentence too long at words, a word too long hard', () => {
    const sentences = Array.from({ length: 20 }, (_, i) => `Sentence number ${i} says something.`).join(' ');
    const chunks = chunkText(sentences, { maxChars: 120, overlapChars: 0 });
    expect(chunks.every((chunk) => chunk.length <= 120 && /\.$/.test(chunk))).toBe(true);
    expect(chunks.join(' ')).toBe(sentences);
    expect(chunkText('x'.repeat(250), { maxChars: 100, overlapChars: 0 })).toEqual(['x'.repeat(100), 'x'.repeat(100), 'x'.repeat(50)]);
  });

  test('whitespace is folded and empty text has no chunks', () => {
    expect(chunkText('  Hello \r\n  world\t!\n\n\n\nNext  ')).toEqual(['Hello\nworld !\n\nNext'.replace('\n', ' ')]);
    expect(chunkText(' \n\n ')).toEqual([]);
  });

  test('search terms are the query’s words, lower-cased, once each, whatever syntax surrounds them', () => {
    expect(searchTerms('Where is "parking" -- OR NEAR(garage)? Parking!')).toEqual(['where', 'is', 'parking', 'or', 'near', 'garage']);
    expect(searchTerms('Größe café 42')).toEqual(['größe', 'café', '42']);
  });
});
