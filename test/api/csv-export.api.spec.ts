import type { CompiledQuery, QueryResult } from 'kysely';
import * as XLSX from 'xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, publishPolicy, startTestService, type Client, type TestService } from '../support/service.js';
import { EMBEDDED_STREAM_PAGE_ROWS, STREAM_PAGE_ROWS } from '../../projections/consents/consents.queries.js';

/** docs/contract.md, CSV export: the columns, in this order. */
const COLUMNS = [
  'id',
  'userReference',
  'policyVersionId',
  'policyType',
  'policyVersion',
  'consentGiven',
  'status',
  'ipAddress',
  'userAgent',
  'consentHash',
  'createdAt',
  'withdrawnAt',
  'tampered',
  'purpose',
  'collectedAt',
  'expiresAt',
  'metadata',
] as const;

/**
 * A strict RFC 4180 parser: records end with CRLF; a field is either quoted (quotes doubled
 * inside, anything else literal, nothing after the closing quote but a comma or the line end) or
 * plain (no comma, quote, CR or LF). Every record has as many fields as the header. Anything else
 * throws, naming the offset.
 */
export function parseRfc4180(text: string): string[][] {
  const records: string[][] = [];
  let i = 0;
  const fail = (what: string): never => {
    throw new Error(`not RFC 4180 at offset ${i}: ${what} (…${JSON.stringify(text.slice(Math.max(0, i - 20), i + 20))}…)`);
  };
  while (i < text.length) {
    const record: string[] = [];
    for (;;) {
      let field = '';
      if (text[i] === '"') {
        i++;
        for (;;) {
          if (i >= text.length) fail('a quoted field is not closed');
          if (text[i] === '"') {
            if (text[i + 1] === '"') {
              field += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          field += text[i];
          i++;
        }
        if (i < text.length && text[i] !== ',' && !text.startsWith('\r\n', i)) fail('text after a closing quote');
      } else {
        while (i < text.length && text[i] !== ',' && !text.startsWith('\r\n', i)) {
          if (text[i] === '"') fail('a quote inside a plain field');
          if (text[i] === '\r' || text[i] === '\n') fail('a bare CR or LF outside quotes');
          field += text[i];
          i++;
        }
      }
      record.push(field);
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text.startsWith('\r\n', i)) i += 2;
      break;
    }
    if (records.length > 0 && record.length !== records[0]!.length)
      fail(`a record of ${record.length} fields, the header has ${records[0]!.length}`);
    records.push(record);
  }
  return records;
}

/** What the export must write for a value: empty for null, and a leading ' on formula starts (behind quotes of its own too). */
const cell = (v: unknown): string => {
  if (v === null || v === undefined) return '';
  // The metadata cell is the record's metadata as JSON.
  const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /^'*[=+\-@\t\r]/.test(s) ? `'${s}` : s;
};

async function searchAll(api: Client, query: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for (let page = 1; ; page++) {
    const body = (await api.get(`/api/v1/consent/search?${query}${query ? '&' : ''}page=${page}&limit=100`)).json();
    items.push(...body.data);
    if (page >= body.pagination.pages) return items;
  }
}

/** The export of a query, parsed, checked row for row against the search of the same query (oldest first). */
async function expectExportMatchesSearch(api: Client, query: string): Promise<string[][]> {
  const res = await api.get(`/api/v1/consent/export${query ? `?${query}` : ''}`);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.body.endsWith('\r\n') || res.body === '').toBe(true);
  const [header, ...rows] = parseRfc4180(res.body);
  expect(header).toEqual([...COLUMNS]);
  const items = (await searchAll(api, query)).reverse();
  expect(rows).toEqual(items.map((item) => COLUMNS.map((c) => cell(item[c]))));
  return rows;
}

describe('CSV export', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
  });
  afterAll(() => t?.close());

  const roomy = async (): Promise<{ tenantId: string; api: Client }> => {
    const creds = await t.tenant('enterprise');
    await t.service.tenants.update(creds.tenantId, { limits: { perMinute: 1_000_000, perDay: 10_000_000 } });
    return { tenantId: creds.tenantId, api: client(t.app, creds) };
  };

  describe('CSV export › parser', () => {
    it('refuses what RFC 4180 refuses', () => {
      expect(parseRfc4180('a,b\r\n"x ""y""","1,\r\n2"\r\n')).toEqual([
        ['a', 'b'],
        ['x "y"', '1,\r\n2'],
      ]);
      for (const bad of [
        'a,b\r\n"x"y,1\r\n',
        'a,b\r\nx"y,1\r\n',
        'a,b\r\n"open,1\r\n',
        'a,b\nx,y\n',
        'a,b\r\nx\ry,1\r\n',
        'a,b\r\nx,y,z\r\n',
      ]) {
        expect(() => parseRfc4180(bad), JSON.stringify(bad)).toThrow(/not RFC 4180/);
      }
    });
  });

  describe('CSV export › when records hold text that CSV and spreadsheets treat specially', () => {
    let api: Client;
    const nasty = [
      'plain',
      'comma, inside',
      'say "hello"',
      'line one\r\nline two',
      'bare\rcr',
      'bare\nlf',
      '"starts with a quote',
      '=HYPERLINK("http://evil.example","x")',
      '+41 44 000 00 00',
      '-2+3',
      '@SUM(A1:A9)',
      '\tleading tab',
      '\rleading cr',
      'no = formula - here + @',
      ' =leading space',
      "'already quoted",
      "'=own quote",
      'ünïcödé ✓ 𝄞',
    ];
    beforeAll(async () => {
      ({ api } = await roomy());
      const policyVersionId = await publishPolicy(api, { policyType: 'cookie_policy', version: '4.5.6' });
      const res = await api.post('/api/v1/consent/batch', {
        consents: nasty.map((s, i) => ({
          policyVersionId,
          userReference: s,
          userAgent: nasty[(i + 3) % nasty.length],
          ipAddress: i % 2 ? '2001:db8::1' : '198.51.100.4',
          consentGiven: i % 3 !== 0,
        })),
      });
      expect(res.statusCode, res.body).toBe(201);
      const first = res.json().data.consents[1].id;
      expect((await api.post(`/api/v1/consent/${first}/withdraw`)).statusCode).toBe(200);
      // No user agent at all: an empty cell.
      expect(
        (
          await api.inject({
            method: 'POST',
            url: '/api/v1/consent',
            headers: { 'user-agent': '' },
            payload: { policyVersionId, userReference: 'no-agent', consentGiven: true, ipAddress: '192.0.2.1' },
          })
        ).statusCode,
      ).toBe(201);
    });

    it('answers a text/csv attachment whose header is the contract columns', async () => {
      const res = await api.get('/api/v1/consent/export');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv(;|$)/);
      expect(res.headers['content-disposition']).toMatch(/^attachment(;|$)/);
      expect(res.headers['content-disposition']).toMatch(/filename="[^"]+\.csv"/);
      expect(res.body.startsWith(`${COLUMNS.join(',')}\r\n`)).toBe(true);
      expect((await api.get('/v1/consent/export')).statusCode).toBe(200);
    });

    it('quotes every value by RFC 4180, escapes formula starts with a leading quote, and parses back to the search results', async () => {
      const rows = await expectExportMatchesSearch(api, '');
      expect(rows).toHaveLength(nasty.length + 1);
      const byUser = new Map(rows.map((r) => [r[1], r]));
      // Formula starts are escaped; the rest is kept as it was, byte for byte.
      expect(byUser.get(`'=HYPERLINK("http://evil.example","x")`)).toBeDefined();
      // Text with a quote of its own before a formula start gets one more, so that taking one off gives it back.
      for (const s of ["'+41 44 000 00 00", "'-2+3", "'@SUM(A1:A9)", "'\tleading tab", "'\rleading cr", "''=own quote"])
        expect(byUser.has(s), JSON.stringify(s)).toBe(true);
      for (const s of [
        'comma, inside',
        'say "hello"',
        'line one\r\nline two',
        'bare\rcr',
        'bare\nlf',
        'no = formula - here + @',
        ' =leading space',
        "'already quoted",
        'ünïcödé ✓ 𝄞',
      ]) {
        expect(byUser.has(s), JSON.stringify(s)).toBe(true);
      }
      expect(byUser.get('no-agent')![8]).toBe('');
      expect(rows.filter((r) => r[6] === 'withdrawn')).toHaveLength(1);
      expect(rows.every((r) => r[11] === '' || r[6] === 'withdrawn')).toBe(true);
      expect(new Set(rows.map((r) => r[5]))).toEqual(new Set(['true', 'false']));

      // And on the wire: the exact quoting of a few cells.
      const body = (await api.get('/api/v1/consent/export')).body;
      expect(body).toContain(`,"'=HYPERLINK(""http://evil.example"",""x"")",`);
      expect(body).toContain(',"say ""hello""",');
      expect(body).toContain(',"line one\r\nline two",');
      expect(body).toContain(`,"'\rleading cr",`);
      expect(body).toContain(`,"'\tleading tab",`);
      expect(body).toContain(',"comma, inside",');
      // Every value cell is quoted, plain text too; an empty cell (no withdrawal) stays empty.
      expect(body).toMatch(/\r\n"[0-9a-f-]{36}","plain","[0-9a-f-]{36}","cookie_policy","4\.5\.6","(true|false)","active",/);
      expect(body).toMatch(/","active","[^\r\n]*Z",,"false",,,,"\{\}"\r\n/);
    });

    it('applies the search filters', async () => {
      for (const query of [
        'consentGiven=true',
        'granted=false',
        'status=withdrawn',
        'status=active&consentGiven=false',
        'userReference=plain',
        `userReference=${encodeURIComponent('line one\r\nline two')}`,
        'policyType=cookie_policy',
        'consent_type=privacy_policy',
        'startDate=2000-01-01&endDate=2000-01-02',
        `startDate=${new Date().toISOString().slice(0, 10)}`,
      ]) {
        await expectExportMatchesSearch(api, query);
      }
      const [, ...none] = parseRfc4180((await api.get('/api/v1/consent/export?userReference=nobody')).body);
      expect(none).toEqual([]);
    });
  });

  describe('CSV export › when a spreadsheet opens it with either separator', () => {
    // Text that breaks out of its cell when a spreadsheet splits the line on ';' (locales whose
    // list separator is ';') or on the line breaks inside a cell, then starts a formula there.
    const breakouts = [
      "x;=cmd|' /C calc'!A0;",
      'x,=1+1,',
      'a\t=2+2',
      'line\r\n=3+3',
      'cr\r@SUM(A1:A2)',
      'lf\n+4+4',
      '"q";-5+5',
      '=HYPERLINK("http://evil.example";"x")',
    ];
    let api: Client;
    beforeAll(async () => {
      ({ api } = await roomy());
      const policyVersionId = await publishPolicy(api, { policyType: 'privacy_policy', version: '7.0.0' });
      const res = await api.post('/api/v1/consent/batch', {
        consents: breakouts.map((s, i) => ({
          policyVersionId,
          userReference: s,
          userAgent: breakouts[(i + 1) % breakouts.length],
          ipAddress: '198.51.100.7',
          consentGiven: true,
        })),
      });
      expect(res.statusCode, res.body).toBe(201);
    });

    /** The cells SheetJS reads from the text split on FS, row by row (formulas detected unless raw). */
    const sheetCells = (text: string, FS: string, raw = false): (XLSX.CellObject | undefined)[][] => {
      const book = XLSX.read(text, { type: 'string', FS, raw });
      const sheet = book.Sheets[book.SheetNames[0]!]!;
      const { e } = XLSX.utils.decode_range(sheet['!ref']!);
      return Array.from({ length: e.r + 1 }, (_, r) =>
        Array.from({ length: e.c + 1 }, (_, c) => sheet[XLSX.utils.encode_cell({ r, c })] as XLSX.CellObject | undefined),
      );
    };

    it('holds no formula and no cell that starts like one, split on "," or on ";"', async () => {
      const body = (await api.get('/api/v1/consent/export')).body;
      for (const FS of [',', ';']) {
        const cells = sheetCells(body, FS)
          .flat()
          .filter((c) => c !== undefined);
        expect(cells.length, FS).toBeGreaterThan(breakouts.length);
        for (const c of cells) {
          expect(c.f, `${FS}: ${JSON.stringify(c)}`).toBeUndefined();
          expect(String(c.v ?? ''), `${FS}: ${JSON.stringify(c)}`).not.toMatch(/^[=+\-@\t\r]/);
        }
      }
    });

    it('reads back, split on ",", to the recorded text (less the leading quote on formula starts)', async () => {
      const body = (await api.get('/api/v1/consent/export')).body;
      const [header, ...rows] = sheetCells(body, ',', true).map((r) => r.map((c) => (c?.v === undefined ? '' : String(c.v))));
      expect(header).toEqual([...COLUMNS]);
      const items = (await searchAll(api, '')).reverse();
      // SheetJS reads a CRLF inside a cell as LF.
      expect(rows).toEqual(items.map((item) => COLUMNS.map((c) => cell(item[c]).replace(/\r\n/g, '\n'))));
      expect(rows.map((r) => r[1])).toEqual(expect.arrayContaining(breakouts.map((s) => cell(s).replace(/\r\n/g, '\n'))));
    });
  });

  describe('CSV export › plans', () => {
    it('is refused on the free plan with 403 PLAN_RESTRICTED, and open from starter up', async () => {
      const free = client(t.app, await t.tenant('free'));
      const res = await free.get('/api/v1/consent/export');
      expect(res.statusCode).toBe(403);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.json()).toMatchObject({ success: false, error: { code: 'PLAN_RESTRICTED' }, meta: { timestamp: expect.any(String) } });
      expect((await free.get('/v1/consent/export?status=active')).statusCode).toBe(403);
      for (const plan of ['starter', 'pro', 'business', 'enterprise'] as const) {
        const api = client(t.app, await t.tenant(plan));
        const ok = await api.get('/api/v1/consent/export');
        expect(ok.statusCode, plan).toBe(200);
        expect(ok.body).toBe(`${COLUMNS.join(',')}\r\n`);
      }
    });
  });
});

describe('CSV export › when a tenant holds 20,000 records', () => {
  let t: TestService;
  let api: Client;
  const N = 20_000;
  beforeAll(async () => {
    t = await startTestService();
    const creds = await t.tenant('enterprise');
    await t.service.tenants.update(creds.tenantId, { limits: { perMinute: 1_000_000, perDay: 10_000_000 } });
    api = client(t.app, creds);
    const policies = await Promise.all(['privacy_policy', 'terms_of_service'].map((policyType) => publishPolicy(api, { policyType })));
    for (let b = 0; b < N / 1000; b++) {
      const res = await api.post('/api/v1/consent/batch', {
        consents: Array.from({ length: 1000 }, (_, i) => ({
          policyVersionId: policies[i % 2]!,
          userReference: `bulk-${b}-${i}`,
          consentGiven: i % 3 !== 0,
          userAgent: `Mozilla/5.0 (bulk ${b}, "${i}")`,
          ipAddress: '203.0.113.9',
        })),
      });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(201);
    }
    // The projections take a while for 20,000 records; the export's own fence waits only seconds.
    const head = await t.service.ledger.headPosition();
    expect(await t.service.runner.waitFor(head!, 240_000)).toBe(true);
  }, 300_000);
  afterAll(() => t?.close());

  it('streams: many chunks, read from the database in keyset pages while the client is still reading', async () => {
    // Watch the service's own queries (pass-through: each still runs on the database).
    // Pages run in short transactions, whose executors derive from the store's: watch those too.
    const log: { kind: 'page' | 'chunk'; n: number }[] = [];
    type Executor = ReturnType<typeof t.service.store.db.getExecutor>;
    const watch = (executor: Executor): Executor => {
      const original = executor.executeQuery.bind(executor);
      executor.executeQuery = async <R>(query: CompiledQuery<R>): Promise<QueryResult<R>> => {
        const result = await original(query);
        if (/from "read"\."consents"/i.test(query.sql) && /order by "created_at", "id"/i.test(query.sql))
          log.push({ kind: 'page', n: result.rows.length });
        return result;
      };
      const derive = executor.withConnectionProvider.bind(executor);
      executor.withConnectionProvider = (provider) => watch(derive(provider));
      return executor;
    };
    const executor = t.service.store.db.getExecutor();
    const saved = { executeQuery: executor.executeQuery, withConnectionProvider: executor.withConnectionProvider };
    watch(executor);
    let text = '';
    try {
      const res = await api.inject({ method: 'GET', url: '/api/v1/consent/export', payloadAsStream: true });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toMatch(/^attachment/);
      const decoder = new TextDecoder();
      for await (const chunk of res.stream()) {
        log.push({ kind: 'chunk', n: (chunk as Buffer).length });
        text += decoder.decode(chunk as Buffer, { stream: true });
      }
      text += decoder.decode();
    } finally {
      Object.assign(executor, saved);
    }

    const pages = log.filter((e) => e.kind === 'page');
    const chunks = log.filter((e) => e.kind === 'chunk');
    // Keyset pages of the store's size (smaller on the embedded store, whose reads hold the event
    // loop): the full ones and the empty one that ends the stream.
    const pageRows = t.service.store.kind === 'embedded' ? EMBEDDED_STREAM_PAGE_ROWS : STREAM_PAGE_ROWS;
    expect(pages.length).toBeGreaterThanOrEqual(N / pageRows);
    expect(Math.max(...pages.map((p) => p.n))).toBe(pageRows);
    expect(pages.reduce((s, p) => s + p.n, 0)).toBe(N);
    // Many chunks on the wire, and the first one reached the client before the database had
    // given up more than three pages (one going out, one being opened, one read ahead): rows go
    // out as they are read, never all held at once.
    expect(chunks.length).toBeGreaterThanOrEqual(20);
    const firstChunk = log.findIndex((e) => e.kind === 'chunk');
    expect(log.slice(0, firstChunk).filter((e) => e.kind === 'page').length).toBeLessThanOrEqual(3);
    expect(log.slice(firstChunk).filter((e) => e.kind === 'page').length).toBeGreaterThanOrEqual(N / pageRows - 3);

    const [header, ...rows] = parseRfc4180(text);
    expect(header).toEqual([...COLUMNS]);
    expect(rows).toHaveLength(N);
    expect(new Set(rows.map((r) => r[0])).size).toBe(N);
    expect(rows.filter((r) => r[5] === 'true')).toHaveLength(rows.length - Math.ceil(1000 / 3) * (N / 1000));
    expect(rows[0]![8]).toMatch(/^Mozilla\/5\.0 \(bulk \d+, "\d+"\)$/);
  }, 120_000);
});
