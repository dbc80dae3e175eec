// Knowledge bases through the gateway: documents from text, a URL (fetched through the egress
// guard from a loopback web server) and uploads (plain text, Markdown, HTML, PDF) ingested after
// the answer, search that puts the chunk holding the answer first, plan limits, the 409 while an
// assistant uses a knowledge base, access rules, and the MCP tools.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expectError, fieldsOf } from './support/api-client.js';
import { startHttpApi, type Loopback } from './support/loopback.js';
import { pdfOf } from './support/pdf.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { eventually } from './support/telephony.js';

let site: Loopback;
let platform: TestPlatform;
let pro: { id: string; key: string };

const pages: Record<string, { type: string; body: string | Buffer; status?: number }> = {
  '/hours.html': {
    type: 'text/html; charset=utf-8',
    body: '<html><head><title>Hours</title><script>var secret = 1;</script></head><body><h1>Opening hours</h1><p>The clinic opens at eight in the morning and closes at six in the evening.</p></body></html>',
  },
  '/menu.pdf': { type: 'application/pdf', body: pdfOf([['Lunch menu'], ['Soup of the day: pumpkin']]) },
  '/missing': { type: 'text/plain', body: 'gone', status: 404 },
  '/image.png': { type: 'image/png', body: Buffer.from([0x89, 0x50, 0x4e, 0x47]) },
};

beforeAll(async () => {
  site = await startHttpApi((request, res) => {
    const page = pages[request.url];
    if (!page) return void res.writeHead(404).end();
    res.writeHead(page.status ?? 200, { 'content-type': page.type }).end(page.body);
  });
  platform = await startTestPlatform({ VOICE_EGRESS_ALLOW_PRIVATE: 'true' });
  pro = await platform.workspace({ plan: 'pro' });
});
afterAll(async () => {
  await platform.close();
  await site.close();
});

const newKnowledgeBase = async (key: string, name = 'Clinic') => {
  const response = await platform.api.post('/knowledge-bases', key, { name, description: 'What callers ask' });
  expect(response.status).toBe(201);
  return response.body.data as { id: string };
};

/** The document once ingestion has ended (ready or failed). */
const settled = (key: string, knowledgeBaseId: string, documentId: string) =>
  eventually(async () => {
    const documents = (await platform.api.get(`/knowledge-bases/${knowledgeBaseId}/documents?limit=200`, key)).body.data as { id: string; status: string }[];
    const document = documents.find((entry) => entry.id === documentId);
    return document && document.status !== 'processing' ? (document as Record<string, unknown>) : undefined;
  }, 30_000, `document ${documentId} to be ingested`);

const addDocument = async (key: string, knowledgeBaseId: string, body: Record<string, unknown>) => {
  const response = await platform.api.post(`/knowledge-bases/${knowledgeBaseId}/documents`, key, body);
  expect(response.status).toBe(201);
  expect(response.body.data.status).toBe('processing');
  return settled(key, knowledgeBaseId, response.body.data.id);
};

const base64 = (content: string | Buffer) => Buffer.from(content).toString('base64');

test('a knowledge base is created, read, listed with its counts, and is 404 for another workspace', async () => {
  const { key } = await platform.workspace({ plan: 'pro' });
  const created = (await platform.api.post('/knowledge-bases', key, { name: 'Support' })).body.data;
  expect(created).toEqual({
    id: expect.any(String),
    name: 'Support',
    description: '',
    document_count: 0,
    size_bytes: 0,
    created_at: expect.any(String),
    updated_at: expect.any(String),
  });
  await addDocument(key, created.id, { text: 'Hello there, this is a document.' });
  const read = (await platform.api.get(`/knowledge-bases/${created.id}`, key)).body.data;
  expect(read).toMatchObject({ document_count: 1, size_bytes: 32 });
  expect((await platform.api.get('/knowledge-bases', key)).body).toEqual({ data: [read], meta: { pagination: { limit: 50, offset: 0, total: 1 } } });
  const stranger = await platform.workspace({ plan: 'pro' });
  for (const [method, path, body] of [
    ['GET', `/knowledge-bases/${created.id}`, undefined],
    ['DELETE', `/knowledge-bases/${created.id}`, undefined],
    ['GET', `/knowledge-bases/${created.id}/documents`, undefined],
    ['POST', `/knowledge-bases/${created.id}/documents`, { text: 'intrusion' }],
    ['POST', `/knowledge-bases/${created.id}/query`, { query: 'hello' }],
  ] as const) {
    expectError(await platform.api.request(method, path, { key: stranger.key, body }), 404, 'not_found');
  }
  expect((await platform.api.get(`/knowledge-bases/${created.id}`, key)).body.data.document_count).toBe(1);
});

test('each kind of document is ingested into searchable chunks: text, URL (HTML, PDF), uploads of text, Markdown, HTML and PDF', async () => {
  const knowledgeBase = await newKnowledgeBase(pro.key, 'Every kind');
  const text = await addDocument(pro.key, knowledgeBase.id, { name: 'Policy', text: 'Cancellations are free until twenty four hours before the visit.' });
  expect(text).toMatchObject({ source: 'text', content_type: 'text/plain', status: 'ready', chunk_count: 1, failure_reason: null, url: null });
  const html = await addDocument(pro.key, knowledgeBase.id, { url: `${site.url}/hours.html` });
  expect(html).toMatchObject({ source: 'url', name: `${site.url}/hours.html`, url: `${site.url}/hours.html`, content_type: 'text/html', status: 'ready' });
  const pdf = await addDocument(pro.key, knowledgeBase.id, { name: 'Menu', url: `${site.url}/menu.pdf` });
  expect(pdf).toMatchObject({ content_type: 'application/pdf', status: 'ready', size_bytes: (pages['/menu.pdf']!.body as Buffer).length });
  const uploads = [
    { name: 'faq.txt', content_type: 'text/plain', data: 'Dogs are welcome in the waiting room.' },
    { name: 'prices.md', content_type: 'text/markdown', data: '# Prices\n\n* A check-up costs forty dollars.' },
    { name: 'team.html', content_type: 'text/html', data: '<p>Doctor <b>Okafor</b> sees children on Tuesdays.</p><style>p { color: red }</style>' },
    { name: 'route.pdf', content_type: 'application/pdf', data: pdfOf([['Take the number twelve tram to Elm Square.']]) },
  ];
  for (const upload of uploads) {
    const document = await addDocument(pro.key, knowledgeBase.id, { file: { name: upload.name, content_type: upload.content_type, data_base64: base64(upload.data) } });
    expect(document).toMatchObject({ source: 'file', name: upload.name, content_type: upload.content_type, status: 'ready' });
  }
  const ask = async (query: string) => (await platform.api.post(`/knowledge-bases/${knowledgeBase.id}/query`, pro.key, { query, limit: 3 })).body.data as { document_name: string; text: string }[];
  expect((await ask('when does the clinic open'))[0]!.text).toContain('opens at eight in the morning');
  expect((await ask('soup'))[0]).toMatchObject({ document_name: 'Menu', text: expect.stringContaining('pumpkin') });
  expect((await ask('dogs'))[0]!.document_name).toBe('faq.txt');
  expect((await ask('check-up price'))[0]!.text).toContain('forty dollars');
  expect((await ask('Okafor'))[0]!.text).toContain('sees children on Tuesdays');
  expect((await ask('tram'))[0]!.document_name).toBe('route.pdf');
  const scripted = await ask('secret color red');
  expect(scripted.map((hit) => hit.text).join(' ')).not.toMatch(/var secret|color: red/);
});

test('the chunk that holds the answer comes first among many, with scores highest first', async () => {
  const knowledgeBase = await newKnowledgeBase(pro.key, 'Handbook');
  const filler = (topic: string) => `${topic} `.repeat(5) + 'The clinic team is happy to help with any question about this topic. '.repeat(20);
  const handbook = [
    filler('Billing and insurance'),
    filler('Vaccinations for children'),
    'Parking: the clinic garage entrance is on Elm Street. Parking is free for patients on level B2; validate the ticket at reception.',
    filler('Dental hygiene'),
    filler('Opening hours on holidays'),
  ].join('\n\n');
  const document = await addDocument(pro.key, knowledgeBase.id, { name: 'Handbook', text: handbook });
  expect(Number(document.chunk_count)).toBeGreaterThan(3);
  const hits = (await platform.api.post(`/knowledge-bases/${knowledgeBase.id}/query`, pro.key, { query: 'Where is parking for patients?' })).body.data as {
    text: string;
    score: number;
    position: number;
  }[];
  expect(hits[0]!.text).toContain('level B2');
  expect(hits.map((hit) => hit.score)).toEqual([...hits.map((hit) => hit.score)].sort((a, b) => b - a));
  expect(hits.length).toBeLessThanOrEqual(5);
  expect((await platform.api.post(`/knowledge-bases/${knowledgeBase.id}/query`, pro.key, { query: 'zebra' })).body.data).toEqual([]);
  expect(fieldsOf(await platform.api.post(`/knowledge-bases/${knowledgeBase.id}/query`, pro.key, { query: '' }))).toEqual(['query']);
});

test('documents that cannot be read fail with a reason: a broken PDF, a 404 page, an unreadable type', async () => {
  const knowledgeBase = await newKnowledgeBase(pro.key, 'Failures');
  const broken = await addDocument(pro.key, knowledgeBase.id, { file: { name: 'broken.pdf', content_type: 'application/pdf', data_base64: base64('%PDF-1.4 not really') } });
  expect(broken).toMatchObject({ status: 'failed', failure_reason: expect.stringContaining('PDF'), chunk_count: 0 });
  expect(await addDocument(pro.key, knowledgeBase.id, { url: `${site.url}/missing` })).toMatchObject({ status: 'failed', failure_reason: expect.stringContaining('404') });
  expect(await addDocument(pro.key, knowledgeBase.id, { url: `${site.url}/image.png` })).toMatchObject({ status: 'failed', failure_reason: expect.stringContaining('image/png') });
});

test('bad bodies are 400 naming the field; a too-large upload is 413; the plan’s document count is 403', async () => {
  const starter = await platform.workspace({ plan: 'starter' });
  const knowledgeBase = await newKnowledgeBase(starter.key);
  const path = `/knowledge-bases/${knowledgeBase.id}/documents`;
  expect(fieldsOf(await platform.api.post(path, starter.key, {}))).toEqual(['text']);
  expect(fieldsOf(await platform.api.post(path, starter.key, { text: 'a', url: 'https://example.com' }))).toEqual(['text']);
  expect(fieldsOf(await platform.api.post(path, starter.key, { url: 'ftp://example.com/file' }))).toEqual(['url']);
  expect(fieldsOf(await platform.api.post(path, starter.key, { file: { name: 'x.doc', content_type: 'application/msword', data_base64: 'AAAA' } }))).toEqual(['file.content_type']);
  expect(fieldsOf(await platform.api.post('/knowledge-bases', starter.key, { name: '' }))).toEqual(['name']);
  const tooLarge = await platform.api.post(path, starter.key, { text: 'x'.repeat(600 * 1024) });
  expectError(tooLarge, 413, 'invalid_request');
  for (let i = 0; i < 20; i++) expect((await platform.api.post(path, starter.key, { text: `Document number ${i}` })).status).toBe(201);
  const refused = await platform.api.post(path, starter.key, { text: 'one too many' });
  expectError(refused, 403, 'forbidden');
  expect(refused.body.error.message).toContain('20 documents');
  expect((await platform.api.get(`/knowledge-bases/${knowledgeBase.id}`, starter.key)).body.data.document_count).toBe(20);
});

test('a document is deleted with its chunks; a knowledge base an assistant uses is 409 until the assistant lets go', async () => {
  const knowledgeBase = await newKnowledgeBase(pro.key, 'Used');
  const document = await addDocument(pro.key, knowledgeBase.id, { text: 'Valet parking costs five dollars.' });
  const query = () => platform.api.post(`/knowledge-bases/${knowledgeBase.id}/query`, pro.key, { query: 'valet' });
  expect((await query()).body.data).toHaveLength(1);
  expect((await platform.api.delete(`/knowledge-bases/${knowledgeBase.id}/documents/${document.id}`, pro.key)).body).toEqual({ data: { id: document.id, deleted: true } });
  expect((await query()).body.data).toEqual([]);
  expectError(await platform.api.delete(`/knowledge-bases/${knowledgeBase.id}/documents/${document.id}`, pro.key), 404, 'not_found');

  const unknown = await platform.api.post('/assistants', pro.key, { name: 'x', knowledge_base_ids: ['6f1c1d7e-9a5b-4c1e-8f00-123456789abc'] });
  expect(fieldsOf(unknown)).toEqual(['knowledge_base_ids.0']);
  const assistant = (await platform.api.post('/assistants', pro.key, { name: 'Reader', knowledge_base_ids: [knowledgeBase.id] })).body.data;
  const refused = await platform.api.delete(`/knowledge-bases/${knowledgeBase.id}`, pro.key);
  expectError(refused, 409, 'conflict');
  expect(refused.body.error.message).toContain('1 assistant');
  await platform.api.patch(`/assistants/${assistant.id}`, pro.key, { knowledge_base_ids: [], expected_revision: 1 });
  expect((await platform.api.delete(`/knowledge-bases/${knowledgeBase.id}`, pro.key)).body).toEqual({ data: { id: knowledgeBase.id, deleted: true } });
  expectError(await platform.api.get(`/knowledge-bases/${knowledgeBase.id}`, pro.key), 404, 'not_found');
});

test('knowledge:read reads and searches, knowledge:write writes, other scopes do neither', async () => {
  const knowledgeBase = await newKnowledgeBase(pro.key, 'Scoped');
  const reader = await platform.key(pro.id, ['knowledge:read']);
  expect((await platform.api.get(`/knowledge-bases/${knowledgeBase.id}/documents`, reader)).status).toBe(200);
  expect((await platform.api.post(`/knowledge-bases/${knowledgeBase.id}/query`, reader, { query: 'anything' })).status).toBe(200);
  expectError(await platform.api.post(`/knowledge-bases/${knowledgeBase.id}/documents`, reader, { text: 'x' }), 403, 'forbidden');
  expectError(await platform.api.delete(`/knowledge-bases/${knowledgeBase.id}`, reader), 403, 'forbidden');
  const other = await platform.key(pro.id, ['assistants:write']);
  expectError(await platform.api.get('/knowledge-bases', other), 403, 'forbidden');
});

test('a URL to a private address is 403 destination_forbidden and nothing is fetched', async () => {
  const guarded = await startTestPlatform();
  try {
    const { key } = await guarded.workspace({ plan: 'pro' });
    const knowledgeBase = (await guarded.api.post('/knowledge-bases', key, { name: 'Guarded' })).body.data;
    const before = site.received.length;
    for (const url of [`${site.url}/hours.html`, 'http://10.0.0.7/intranet', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]:8080/']) {
      expectError(await guarded.api.post(`/knowledge-bases/${knowledgeBase.id}/documents`, key, { url }), 403, 'destination_forbidden');
    }
    expect(site.received.length).toBe(before);
    expect((await guarded.api.get(`/knowledge-bases/${knowledgeBase.id}`, key)).body.data.document_count).toBe(0);
  } finally {
    await guarded.close();
  }
});

test('the knowledge toolset offers the five knowledge tools, answering as REST does', async () => {
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${platform.running.url}/mcp?toolsets=knowledge`), { requestInit: { headers: { authorization: `Bearer ${pro.key}` } } }));
  try {
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['add_document', 'create_knowledge_base', 'delete_knowledge_base', 'get_knowledge_base', 'list_knowledge_bases']);
    type Answer = { structuredContent?: { data: { id: string; status?: string } }; isError?: boolean };
    const created = (await client.callTool({ name: 'create_knowledge_base', arguments: { name: 'From MCP' } })) as Answer;
    const id = created.structuredContent!.data.id;
    const added = (await client.callTool({ name: 'add_document', arguments: { id, text: 'Answered over MCP.' } })) as Answer;
    expect(added.structuredContent!.data.status).toBe('processing');
    await settled(pro.key, id, added.structuredContent!.data.id);
    expect(((await client.callTool({ name: 'get_knowledge_base', arguments: { id } })) as { structuredContent: unknown }).structuredContent).toEqual(
      (await platform.api.get(`/knowledge-bases/${id}`, pro.key)).body,
    );
    expect(((await client.callTool({ name: 'add_document', arguments: { id } })) as Answer).isError).toBe(true);
    expect(((await client.callTool({ name: 'delete_knowledge_base', arguments: { id } })) as { structuredContent: unknown }).structuredContent).toEqual({ data: { id, deleted: true } });
  } finally {
    await client.close();
  }
});
