import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, cliBin, cliEngines, cliStarted, onEngine, withService as withServiceIn } from '../support/cli.js';
import { sql } from 'kysely';
import { prng } from '../support/prng.js';
import { runCommand, waitUntil } from '../support/process.js';
import { client, publishPolicy, type Client } from '../support/service.js';

/**
 * Issue 18, moving in: `npx consent-ledger import`, run as an operator runs it (the built bin, in
 * a child process), on both stores; what it imported is then read through the service's API.
 */

const bin = cliBin;
const engines = cliEngines('import.e2e');

let files: string;
beforeAll(() => {
  files = mkdtempSync(join(tmpdir(), 'cl-import-files-'));
});
afterAll(() => rmSync(files, { recursive: true, force: true }));

interface Row {
  id: string;
  userReference: string | null;
  policyType: string;
  policyVersion: string;
  purpose?: string;
  consentGiven: boolean;
  status: string;
  ipAddress: string | null;
  userAgent: string | null;
  createdAt: string;
  collectedAt?: string;
  imported?: true;
  withdrawnAt: string | null;
  metadata: Record<string, unknown> | null;
  consentHash: string;
}

/** `import --tenant ID --file FILE` with a `--map COLUMN=FIELD` for each entry. */
const importArgs = (tenantId: string, file: string, maps: Record<string, string>): string[] => [
  'import',
  '--tenant',
  tenantId,
  '--file',
  file,
  ...Object.entries(maps).flatMap(([column, field]) => ['--map', `${column}=${field}`]),
];

async function allRecords(api: Client): Promise<Row[]> {
  const res = await api.get('/api/v1/consent/search?limit=100');
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Row[];
}

describe('import › bad arguments exit 2 with a clear message, touching no store', () => {
  it.each([
    [['--tenant', '00000000-0000-4000-8000-000000000000'], /--file is required/],
    [['--tenant', '00000000-0000-4000-8000-000000000000', '--file', 'history.xlsx'], /\.csv or a \.jsonl/],
    [['--tenant', '00000000-0000-4000-8000-000000000000', '--file', '/no/such/file.csv'], /no such file/],
    [['--tenant', 'acme', '--file', 'a.csv'], /tenant id/],
    [
      ['--tenant', '00000000-0000-4000-8000-000000000000', '--file', 'a.csv', '--threads', '0'],
      /--threads must be a whole number from 1 to 16/,
    ],
    [['--tenant', '00000000-0000-4000-8000-000000000000', '--file', 'a.csv', '--threads', 'many'], /--threads must be/],
    [['--tenant', '00000000-0000-4000-8000-000000000000', '--file', 'a.csv', '--map', 'email'], /COLUMN=FIELD/],
    [['--tenant', '00000000-0000-4000-8000-000000000000', '--file', 'a.csv', '--map', 'email=nickname'], /COLUMN=FIELD/],
    [
      ['--tenant', '00000000-0000-4000-8000-000000000000', '--file', 'a.csv', '--purpose-alias', 'C0002=analytics'],
      /--purpose-alias names the purposes of a list cell: map one with --map COLUMN=purposes.given/,
    ],
    [
      ['--tenant', '00000000-0000-4000-8000-000000000000', '--file', 'a.csv', '--map', 'Out=withdrawnAt.sms'],
      /--map Out=withdrawnAt.sms: no decision column is on sms \(give it with --map COLUMN=consentGiven.sms\)/,
    ],
    [['--tenant', '00000000-0000-4000-8000-000000000000', '--file', 'a.csv', '--default', 'id=7'], /--default id=7: give FIELD=VALUE/],
    [['--tenant', '00000000-0000-4000-8000-000000000000', '--file', 'a.csv', '--default', 'purpose='], /the value is empty/],
    [['--tenant', '00000000-0000-4000-8000-000000000000', '--file', 'a.csv', '--time-zone', 'Mars/Olympus'], /no such time zone/],
    // A negative offset is the option's value, not another option: the next check speaks.
    [
      ['--tenant', '00000000-0000-4000-8000-000000000000', '--file', 'a.csv', '--date-format', 'MM.YYYY', '--time-zone', '-05:00'],
      /--date-format MM\.YYYY: give the year/,
    ],
    [
      ['--tenant', '00000000-0000-4000-8000-000000000000', '--file', 'a.csv', '--default', 'consentGiven=perhaps'],
      /--default consentGiven: is not a decision/,
    ],
    [
      ['--tenant', '00000000-0000-4000-8000-000000000000', '--file', 'a.csv', '--default', 'collectedAt=2021-01-01 10:00'],
      /--default collectedAt: is not a date-time with a time zone/,
    ],
    [['--tenant', '00000000-0000-4000-8000-000000000000', '--file', 'a.csv', '--date-format', 'DD.MM.YYYY'], /give --time-zone too/],
    [
      ['--tenant', '00000000-0000-4000-8000-000000000000', '--file', 'a.csv', '--date-format', 'MM.YYYY', '--time-zone', 'UTC'],
      /--date-format MM\.YYYY: give the year \(YYYY\), month \(MM or M\) and day/,
    ],
    [
      ['--tenant', '00000000-0000-4000-8000-000000000000', '--file', 'a.csv', '--given', 'ja,no', '--rejected', 'nein,ja'],
      /--given\/--rejected: ja, no would mean both consent given and rejected/,
    ],
    [
      ['--tenant', '00000000-0000-4000-8000-000000000000', '--file', 'a.csv', '--rejected', 'nein,'],
      /--rejected: give words separated by commas/,
    ],
    [
      ['--tenant', '00000000-0000-4000-8000-000000000000', '--file', 'a.csv', '--empty', 'n/a,Opted Out'],
      /--empty: opted out is a word for a decision/,
    ],
    [
      ['--tenant', '00000000-0000-4000-8000-000000000000', '--file', 'a.csv', '--given', 'ja', '--empty', 'JA'],
      /--empty: ja is a word for a decision/,
    ],
  ])('%j', async (args, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'cl-import-args-'));
    try {
      writeFileSync(join(dir, 'a.csv'), 'userReference\n');
      const run = await runCommand(process.execPath, [bin, 'import', ...args], { DATA_DIR: join(dir, 'data') }, dir);
      expect(run.code, run.stderr).toBe(2);
      expect(run.json.error.code).toBe('USAGE');
      expect(run.json.error.message).toMatch(message);
      expect(existsSync(join(dir, 'data'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('on a store no service has started on, says where the master key comes from', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cl-import-keyless-'));
    try {
      const env = { DATA_DIR: join(dir, 'data') };
      const tenant = await cli(['tenant', 'create', '--name', 'Early', '--plan', 'starter'], env);
      expect(tenant.code, tenant.stderr).toBe(0);
      writeFileSync(
        join(dir, 'a.csv'),
        'userReference,policyType,consentGiven,collectedAt\nu-1,privacy_policy,true,2025-01-01T00:00:00Z\n',
      );
      const run = await runCommand(process.execPath, [bin, 'import', '--tenant', tenant.json.tenantId, '--file', 'a.csv'], env, dir);
      expect(run.code, run.stderr).toBe(2);
      expect(run.json.error).toMatchObject({
        code: 'USAGE',
        message: expect.stringMatching(/no master key: .*the service makes one there on its first start/),
      });
      expect(existsSync(join(dir, 'data', 'master.key'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe.each(engines)('import › on $name', (engine) => {
  const { env, withService, createTenant } = onEngine(engine);
  /**
   * How a file is read and its rows checked, counted and keyed is the same code on every store,
   * over the ledger's port (whose adapters have contract tests of their own): those tests run on
   * one, the server when there is one, as is the audit entry a run writes through that port. A
   * round trip between tenants is tested on each.
   */
  const itReading = it.runIf(engine === engines[engines.length - 1]);
  /** The same policies in any tenant: a privacy policy, and a newsletter purpose of type custom. */
  const publishAll = async (api: Client, active = true) => {
    expect((await api.post('/api/v1/purposes', { key: 'newsletter', name: 'Newsletter', legalBasis: 'consent' })).statusCode).toBe(201);
    const privacy = await publishPolicy(api, { policyType: 'privacy_policy', version: '1.0.0', content: 'Privacy 1.0' });
    const news = await publishPolicy(api, { policyType: 'custom', purpose: 'newsletter', version: '2.0.0', content: 'Newsletter 2.0' });
    if (!active) expect((await api.patch(`/api/v1/policies/${privacy}`, { isActive: false })).statusCode).toBe(200);
    return { privacy, news };
  };
  /** A tenant with these purposes (key, name), each with a version 1.0.0 in force since 2019. */
  const tenantWithPurposes = async (tenantName: string, purposes: [key: string, name: string][]) => {
    const tenant = await createTenant(tenantName);
    await withService(async (service) => {
      const api = client(service.app, tenant);
      for (const [key, name] of purposes) {
        expect((await api.post('/api/v1/purposes', { key, name, legalBasis: 'consent' })).statusCode).toBe(201);
        await publishPolicy(api, { policyType: 'custom', purpose: key, version: '1.0.0', effectiveDate: '2019-01-01T00:00:00Z' });
      }
    });
    return tenant;
  };

  it("round trip: this service's export from one tenant imports into another with the same decisions and times", async () => {
    const source = await createTenant('Old platform');
    const target = await createTenant('New home');
    const csv = await withService(async (service) => {
      const api = client(service.app, source);
      const { privacy, news } = await publishAll(api);
      const record = async (body: Record<string, unknown>) => {
        const res = await api.post('/api/v1/consent', body);
        expect(res.statusCode, res.body).toBe(201);
        return res.json().data.id as string;
      };
      await record({
        policyVersionId: privacy,
        userReference: 'anna',
        consentGiven: true,
        ipAddress: '203.0.113.9',
        userAgent: 'Firefox/1',
      });
      await record({
        policyVersionId: news,
        userReference: '+49 170 000',
        consentGiven: true,
        userAgent: '=formula "quoted", line\r\nbreak',
        metadata: { source: 'web', form: { id: 7, "quote's": '"x", y' }, tags: ['a', 'b'] },
      });
      await record({ policyVersionId: news, userReference: 'bob', consentGiven: false });
      // A quote of its own before a formula start: the export's escape must come off, not this one.
      await record({ policyVersionId: privacy, userReference: "'=kept as written", consentGiven: true });
      const withdrawn = await record({ policyVersionId: news, userReference: 'carla', consentGiven: true });
      expect((await api.post(`/api/v1/consent/${withdrawn}/withdraw`, { reason: 'moved' })).statusCode).toBe(200);
      const exported = await api.get('/api/v1/consent/export');
      expect(exported.statusCode).toBe(200);
      return exported.body;
    });
    const file = join(files, `export-${engine.name.length}.csv`);
    writeFileSync(file, csv);
    const sourceRows = await withService(async (service) => allRecords(client(service.app, source)));
    await withService(async (service) => publishAll(client(service.app, target), false));

    const run = await cli(['import', '--tenant', target.tenantId, '--file', file], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json).toMatchObject({ rows: 5, imported: 5, alreadyImported: 0, refused: 0, errors: [] });
    expect(run.stderr).toContain("this service's export");

    await withService(async (service) => {
      const api = client(service.app, target);
      const imported = await allRecords(api);
      const key = (r: Row) => `${r.userReference}|${r.policyType}|${r.policyVersion}`;
      const byKey = new Map(imported.map((r) => [key(r), r]));
      expect(imported).toHaveLength(5);
      for (const s of sourceRows) {
        const r = byKey.get(key(s))!;
        expect(r, key(s)).toBeDefined();
        expect(r).toMatchObject({
          consentGiven: s.consentGiven,
          status: s.status,
          ipAddress: s.ipAddress,
          userAgent: s.userAgent,
          collectedAt: s.createdAt,
          withdrawnAt: s.withdrawnAt,
          metadata: s.metadata,
          imported: true,
          ...(s.purpose ? { purpose: s.purpose } : {}),
        });
        expect(r.id).not.toBe(s.id);
        const verified = (await api.get(`/api/v1/consent/verify?consentId=${r.id}`)).json().data;
        expect(verified.valid, JSON.stringify([r, verified])).toBe(true);
        // The ledger says who moved it in: the operator's command line.
        expect((await api.get(`/api/v1/consent/${r.id}`)).json().data.recordedBy).toEqual({ type: 'cli' });
      }
    });

    // Run again: every row is found imported, nothing is recorded twice.
    const again = await cli(['import', '--tenant', target.tenantId, '--file', file], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json).toMatchObject({ rows: 5, imported: 0, alreadyImported: 5, refused: 0 });
  }, 120_000);

  itReading(
    'a generic CSV with --map: bad rows are reported by line, the rest imported; --dry-run writes nothing',
    async () => {
      const tenant = await createTenant('Generic');
      await withService(async (service) => publishAll(client(service.app, tenant)));
      const lines = [
        'email;given;when;version;purpose;channel;note',
        'a@example.com;yes;2021-03-04T05:06:07Z;2.0.0;newsletter;web;',
        'b@example.com;maybe;2021-03-04T05:06:07Z;2.0.0;newsletter;web;',
        'c@example.com;no;2999-01-01T00:00:00Z;2.0.0;newsletter;app;',
        'd@example.com;no;2021-03-04T05:06:07Z;9.9.9;newsletter;app;',
        'e@example.com;yes;2021-03-04 05:06:07;2.0.0;newsletter;app;',
        'f@example.com;yes;2021-03-04T05:06:07Z;2.0.0;newsletter;"unclosed;x',
        'g@example.com;no;2022-01-01T00:00:00+02:00;2.0.0;newsletter;app;"two',
        'lines"',
        // Short of the header's cells: those left out are empty (Excel drops trailing empty cells).
        'h@example.com;yes;2022-01-01T00:00:00Z;2.0.0;newsletter',
        'i@example.com;true;2022-01-01T00:00:00Z;1.0.0;privacy_policy;email;',
        // Cells past the header: empty ones are nothing, a value is refused (which column would it be?).
        'j@example.com;no;2022-01-01T00:00:00Z;2.0.0;newsletter;app;;;',
        'k@example.com;no;2022-01-01T00:00:00Z;2.0.0;newsletter;app;;stray',
        'l@example.com;yes;2022-01-01T00:00:00Z;2.0.0',
      ];
      const file = join(files, `generic-${engine.name.length}.csv`);
      writeFileSync(file, `${lines.join('\r\n')}\r\n`);
      const args = importArgs(tenant.tenantId, file, {
        email: 'userReference',
        given: 'consentGiven',
        when: 'collectedAt',
        version: 'policyVersion',
        channel: 'metadata.channel',
        note: '-',
      });

      const dry = await cli([...args, '--dry-run'], env);
      expect(dry.code, dry.stderr).toBe(1);
      expect(dry.json).toMatchObject({ rows: 12, imported: 5, refused: 7, dryRun: true });

      const run = await cli(args, env);
      expect(run.code, run.stderr).toBe(1);
      const error = run.json as {
        code: string;
        rows: number;
        imported: number;
        refused: number;
        errors: { line: number; field: string; message: string }[];
      };
      expect(error).toMatchObject({ rows: 12, imported: 5, refused: 7, dryRun: false });
      // A dry run after it previews the run again: every good row found imported, nothing new.
      const again = await cli([...args, '--dry-run'], env);
      expect(again.json).toMatchObject({ rows: 12, imported: 0, alreadyImported: 5, refused: 7, dryRun: true });
      // One error per bad row, named by its column: a broken quote costs its own row only (g's quoted field spans lines 8 and 9).
      expect(error.errors.map((e) => [e.line, e.field])).toEqual([
        [3, 'given'],
        [4, 'when'],
        [5, 'version'],
        [6, 'when'],
        [7, 'line'],
        [13, 'line'],
        [14, 'purpose'],
      ]);
      for (const e of error.errors) expect(run.stderr).toContain(`line ${e.line}: ${e.field}: ${e.message}`);

      await withService(async (service) => {
        const api = client(service.app, tenant);
        const imported = await allRecords(api);
        expect(imported.map((r) => r.userReference).sort()).toEqual([
          'a@example.com',
          'g@example.com',
          'h@example.com',
          'i@example.com',
          'j@example.com',
        ]);
        const g = imported.find((r) => r.userReference === 'g@example.com')! as Row & { metadata: Record<string, unknown> };
        expect(g).toMatchObject({
          consentGiven: false,
          collectedAt: '2021-12-31T22:00:00.000Z',
          purpose: 'newsletter',
          metadata: { channel: 'app' },
        });
        const web = (await api.get('/api/v1/consent/search?metadata.channel=web')).json().data as Row[];
        expect(web.map((r) => r.userReference)).toEqual(['a@example.com']);
      });
    },
    120_000,
  );

  itReading(
    '--default fills what the file leaves out, --time-zone reads times without one; a --map naming no column is refused',
    async () => {
      const tenant = await createTenant('Defaults');
      await withService(async (service) => publishAll(client(service.app, tenant)));
      // An export of one list from another platform: no purpose, no version, a channel only sometimes.
      const file = join(files, `defaults-${engine.name.length}.csv`);
      writeFileSync(file, 'Email,Opt-in,Date,Channel\nk@example.com,yes,2023-05-06T07:08:09Z,\nl@example.com,no,2023-05-07 00:00,app\n');
      const base = importArgs(tenant.tenantId, file, {
        Email: 'userReference',
        'Opt-in': 'consentGiven',
        Date: 'collectedAt',
        Channel: 'metadata.channel',
      });

      const typo = await cli([...base, '--map', 'Chanel=metadata.channel'], env);
      expect(typo.code, typo.stderr).toBe(2);
      // Two columns for one field: which one a row holds is not the import's to guess.
      const twice = await cli([...base, '--map', 'Channel=userReference', '--dry-run'], env);
      expect(twice.code, twice.stderr).toBe(2);
      expect(twice.json.error.message).toBe(
        'columns Email and Channel both give userReference: leave one out with --map COLUMN=- (or map it to another field) (its columns: Email, Opt-in, Date, Channel)',
      );
      // Nothing names the version: every row would be refused for it, so the file is, before a row is read.
      const versionless = await cli([...base, '--dry-run'], env);
      expect(versionless.code, versionless.stderr).toBe(2);
      expect(versionless.json.error).toMatchObject({
        code: 'USAGE',
        message: expect.stringMatching(
          /^no column of the file gives policyVersion \(or purpose, policyType or policyVersionId\): name the column with --map COLUMN=FIELD, or give one value for every row with --default FIELD=VALUE \(its columns: Email, Opt-in, Date, Channel\)$/,
        ),
      });
      const zoneless = await cli([...base, '--default', 'purpose=newsletter', '--default', 'policyVersion=2.0.0', '--dry-run'], env);
      expect(zoneless.json).toMatchObject({
        imported: 1,
        errors: [
          {
            line: 3,
            field: 'Date',
            message: expect.stringMatching(/"2023-05-07 00:00"; --time-zone ZONE reads times written without one/),
          },
        ],
      });
      expect(typo.json.error).toMatchObject({
        code: 'USAGE',
        message: expect.stringMatching(/--map Chanel: the file has no such column \(its columns: Email, Opt-in, Date, Channel\)/),
      });

      const run = await cli(
        [
          ...base,
          '--time-zone',
          'Europe/Paris',
          '--default',
          'purpose=newsletter',
          '--default',
          'policyVersion=2.0.0',
          '--default',
          'metadata.channel=email',
          '--default',
          'metadata.source=legacy-crm',
        ],
        env,
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.json).toMatchObject({ rows: 2, imported: 2, refused: 0 });
      await withService(async (service) => {
        const rows = (await allRecords(client(service.app, tenant))) as (Row & { metadata: unknown })[];
        expect(rows.map((r) => [r.userReference, r.consentGiven, r.purpose, r.policyVersion, r.collectedAt, r.metadata]).sort()).toEqual([
          ['k@example.com', true, 'newsletter', '2.0.0', '2023-05-06T07:08:09.000Z', { channel: 'email', source: 'legacy-crm' }],
          // A time without a zone is read in --time-zone: midnight in Paris, in summer time.
          ['l@example.com', false, 'newsletter', '2.0.0', '2023-05-06T22:00:00.000Z', { channel: 'app', source: 'legacy-crm' }],
        ]);
      });

      // A German platform's export: ';', a byte order mark, its own words for a decision and its own
      // dates; a blank line before the header (the delimiter is read off the header, not it) and
      // a line of spaces between rows (no row).
      const german = join(files, `german-${engine.name.length}.csv`);
      writeFileSync(
        german,
        '\uFEFF\r\nE-Mail;Einwilligung;Datum\r\nm@example.de;Ja;15.01.2024 10:30\r\n   \r\nn@example.de;nein;1.7.2024 9:05\r\n',
      );
      const deRun = await cli(
        [
          'import',
          '--tenant',
          tenant.tenantId,
          '--file',
          german,
          '--map',
          'E-Mail=userReference',
          '--map',
          'Einwilligung=consentGiven',
          '--map',
          'Datum=collectedAt',
          '--given',
          'ja',
          '--rejected',
          'nein',
          '--date-format',
          'D.M.YYYY H:mm',
          '--time-zone',
          'Europe/Berlin',
          '--default',
          'purpose=newsletter',
          '--default',
          'policyVersion=2.0.0',
        ],
        env,
      );
      expect(deRun.code, deRun.stderr).toBe(0);
      expect(deRun.json).toMatchObject({ rows: 2, imported: 2, refused: 0 });
      await withService(async (service) => {
        const rows = await allRecords(client(service.app, tenant));
        const imported = rows.filter((r) => r.userReference!.endsWith('.de'));
        expect(imported.map((r) => [r.userReference, r.consentGiven, r.collectedAt]).sort()).toEqual([
          // Winter (UTC+1) and summer (UTC+2) in Berlin.
          ['m@example.de', true, '2024-01-15T09:30:00.000Z'],
          ['n@example.de', false, '2024-07-01T07:05:00.000Z'],
        ]);
      });
    },
    120_000,
  );

  itReading(
    'a purpose without a version takes the version in force when the decision was made',
    async () => {
      const tenant = await createTenant('By time');
      await withService(async (service) => {
        const api = client(service.app, tenant);
        expect((await api.post('/api/v1/purposes', { key: 'newsletter', name: 'Newsletter', legalBasis: 'consent' })).statusCode).toBe(201);
        for (const [version, effectiveDate] of [
          ['1.0.0', '2019-01-01T00:00:00Z'],
          ['2.0.0', '2022-01-01T00:00:00Z'],
        ]) {
          await publishPolicy(api, {
            policyType: 'custom',
            purpose: 'newsletter',
            version,
            content: `Newsletter ${version}`,
            effectiveDate,
          });
        }
        expect((await api.post('/api/v1/purposes', { key: 'sms', name: 'SMS offers', legalBasis: 'consent' })).statusCode).toBe(201);
        await publishPolicy(api, { policyType: 'custom', purpose: 'sms', version: '1.0.0', effectiveDate: '2019-01-01T00:00:00Z' });
      });
      const file = join(files, `by-time-${engine.name.length}.csv`);
      // Another platform's export names purposes its own way: a key in another case, a purpose's name.
      writeFileSync(
        file,
        [
          'Email,Opt-in,Date,List',
          'm@example.com,yes,2020-03-04T05:06:07Z,newsletter',
          'n@example.com,no,2023-01-01T00:00:00Z,Newsletter',
          'o@example.com,yes,2018-12-31T23:00:00Z,newsletter',
          'p@example.com,yes,2021-01-01T00:00:00Z,sms offers',
          'q@example.com,yes,2021-01-01T00:00:00Z,Postcards',
        ].join('\n') + '\n',
      );
      const run = await cli(
        importArgs(tenant.tenantId, file, { Email: 'userReference', 'Opt-in': 'consentGiven', Date: 'collectedAt', List: 'purpose' }),
        env,
      );
      expect(run.code, run.stderr).toBe(1);
      expect(run.json).toMatchObject({
        rows: 5,
        imported: 3,
        errors: [
          {
            line: 4,
            field: 'List',
            message:
              'no version of newsletter was in force at 2018-12-31T23:00:00.000Z (the first took effect 2019-01-01T00:00:00.000Z): publish the text the user saw, with its original effectiveDate',
          },
          {
            line: 6,
            field: 'List',
            message: 'no purpose Postcards in this tenant, by key or name (its purposes: newsletter (Newsletter), sms (SMS offers))',
          },
        ],
      });
      await withService(async (service) => {
        const rows = await allRecords(client(service.app, tenant));
        expect(rows.map((r) => [r.userReference, r.purpose ?? r.policyType, r.policyVersion]).sort()).toEqual([
          ['m@example.com', 'newsletter', '1.0.0'],
          ['n@example.com', 'newsletter', '2.0.0'],
          ['p@example.com', 'sms', '1.0.0'],
        ]);
      });
    },
    120_000,
  );

  itReading(
    'a wide file, a column of decisions per purpose: a decision per cell that is not empty, each found again on a run again',
    async () => {
      const tenant = await tenantWithPurposes('Wide', [
        ['newsletter', 'Newsletter'],
        ['sms', 'SMS offers'],
      ]);
      const file = join(files, `wide-${engine.name.length}.csv`);
      // A CRM's export: one row per person, a column per list, one time; the SMS column named by the purpose's name.
      writeFileSync(
        file,
        [
          'CRM id,Email,Newsletter,SMS,Updated,Source',
          '1,r@example.com,OPT_IN,opted out,2024-03-04T05:06:07Z,crm',
          '2,s@example.com,yes,,2024-03-05T05:06:07Z,crm',
          '3,t@example.com,,,2024-03-06T05:06:07Z,crm',
          '4,u@example.com,maybe,no,2024-03-07T05:06:07Z,crm',
        ].join('\n') + '\n',
      );
      const args = importArgs(tenant.tenantId, file, {
        'CRM id': 'id',
        Email: 'userReference',
        Newsletter: 'consentGiven.newsletter',
        SMS: 'consentGiven.SMS offers',
        Updated: 'collectedAt',
        Source: 'metadata.source',
      });
      const run = await cli(args, env);
      expect(run.code, run.stderr).toBe(1);
      // Rows are decisions: two on line 2, one on line 3 and one on line 5; line 4 has none, line 5's newsletter cell is no decision.
      expect(run.json).toMatchObject({
        rows: 6,
        imported: 4,
        alreadyImported: 0,
        refused: 2,
        errors: [
          { line: 4, field: 'Newsletter, SMS', message: 'are all empty: the row gives no decision' },
          { line: 5, field: 'Newsletter', message: expect.stringContaining('is not a decision: "maybe"') as unknown },
        ],
      });
      await withService(async (service) => {
        const rows = (await allRecords(client(service.app, tenant))) as (Row & { metadata: Record<string, unknown> })[];
        expect(rows.map((r) => [r.userReference, r.purpose, r.consentGiven, r.collectedAt, r.metadata.source]).sort()).toEqual([
          ['r@example.com', 'newsletter', true, '2024-03-04T05:06:07.000Z', 'crm'],
          ['r@example.com', 'sms', false, '2024-03-04T05:06:07.000Z', 'crm'],
          ['s@example.com', 'newsletter', true, '2024-03-05T05:06:07.000Z', 'crm'],
          ['u@example.com', 'sms', false, '2024-03-07T05:06:07.000Z', 'crm'],
        ]);
      });
      // One source id, a decision per purpose: each keyed by both, so a run again finds all four and records nothing.
      const again = await cli(args, env);
      expect(again.json).toMatchObject({ rows: 6, imported: 0, alreadyImported: 4, refused: 2 });

      // JSON lines: a key per purpose, its value true or false (null is no decision); a line without any of them gives none.
      const lines = join(files, `wide-${engine.name.length}.jsonl`);
      writeFileSync(
        lines,
        [
          { email: 'v@example.com', news: null, sms: true, at: '2024-04-01T00:00:00Z' },
          { email: 'w@example.com', at: '2024-04-01T00:00:00Z' },
        ]
          .map((line) => JSON.stringify(line))
          .join('\n') + '\n',
      );
      const jsonl = await cli(
        importArgs(tenant.tenantId, lines, {
          email: 'userReference',
          at: 'collectedAt',
          news: 'consentGiven.newsletter',
          sms: 'consentGiven.sms',
        }),
        env,
      );
      expect(jsonl.json).toMatchObject({
        rows: 2,
        imported: 1,
        errors: [{ line: 2, field: 'news, sms', message: 'are all empty: the row gives no decision' }],
      });
      await withService(async (service) => {
        const rows = await allRecords(client(service.app, tenant));
        expect(rows.filter((r) => r.userReference === 'v@example.com').map((r) => [r.purpose, r.consentGiven])).toEqual([['sms', true]]);
      });

      // A CRM writes "Not specified" for no decision and "N/A" for no value: --empty reads them as empty cells.
      const unset = join(files, `wide-unset-${engine.name.length}.csv`);
      writeFileSync(
        unset,
        ['Email,Newsletter,SMS,Updated,Source', 'x@example.com,Not specified,yes,2024-03-08T00:00:00Z,N/A'].join('\n') + '\n',
      );
      const unsetArgs = importArgs(tenant.tenantId, unset, {
        Email: 'userReference',
        Newsletter: 'consentGiven.newsletter',
        SMS: 'consentGiven.sms',
        Updated: 'collectedAt',
        Source: 'metadata.source',
      });
      const withoutEmpty = await cli([...unsetArgs, '--dry-run'], env);
      expect(withoutEmpty.json).toMatchObject({ rows: 2, imported: 1, errors: [{ line: 2, field: 'Newsletter' }] });
      const withEmpty = await cli([...unsetArgs, '--empty', 'not specified, n/a'], env);
      expect(withEmpty.json).toMatchObject({ rows: 1, imported: 1, refused: 0 });
      await withService(async (service) => {
        const rows = (await allRecords(client(service.app, tenant))) as (Row & { metadata: Record<string, unknown> })[];
        expect(rows.filter((r) => r.userReference === 'x@example.com').map((r) => [r.purpose, r.consentGiven, r.metadata])).toEqual([
          ['sms', true, {}],
        ]);
      });

      // A purpose the tenant lacks, a column or --default that would give the decision or purpose besides them: refused before a row.
      const refusedBefore: [string[], RegExp][] = [
        [['--map', 'SMS=consentGiven.postcards'], /--map SMS=consentGiven.postcards: no purpose postcards in this tenant/],
        [['--map', 'Source=purpose'], /column Source gives purpose, which the decision columns \(Newsletter, SMS\) give/],
        [['--default', 'purpose=newsletter'], /--default purpose: the decision columns \(Newsletter, SMS\) give each row's purpose/],
      ];
      for (const [extra, message] of refusedBefore) {
        const refused = await cli([...args, ...extra], env);
        expect(refused.code, refused.stderr).toBe(2);
        expect(refused.stderr).toMatch(message);
      }
    },
    120_000,
  );

  itReading(
    "a wide file with a time per purpose: each decision at its own time (the row's when empty), withdrawals too",
    async () => {
      const tenant = await tenantWithPurposes('Wide, timed', [
        ['newsletter', 'NEWSLETTER'],
        ['sms', 'SMS'],
      ]);
      const file = join(files, `wide-timed-${engine.name.length}.csv`);
      // A CRM's export with a date per list and an opt-out date for SMS; "Created" stands in where a list's date is missing.
      writeFileSync(
        file,
        [
          'Email,Newsletter,Newsletter date,SMS,SMS date,SMS opt-out date,Created',
          'a@example.com,yes,2023-02-01T10:00:00Z,yes,2023-03-01T10:00:00Z,2024-06-01T10:00:00Z,2022-01-01T00:00:00Z',
          'b@example.com,no,,yes,2023-04-01T10:00:00Z,,2022-01-02T00:00:00Z',
          'c@example.com,,,,,2024-07-01T10:00:00Z,2022-01-03T00:00:00Z',
          'd@example.com,yes,2023-13-01,,,,2022-01-04T00:00:00Z',
          'e@example.com,yes,,,,,2099-01-01T00:00:00Z',
        ].join('\n') + '\n',
      );
      const run = await cli(
        importArgs(tenant.tenantId, file, {
          Email: 'userReference',
          Newsletter: 'consentGiven.newsletter',
          'Newsletter date': 'collectedAt.newsletter',
          SMS: 'consentGiven.sms',
          'SMS date': 'collectedAt.sms',
          'SMS opt-out date': 'withdrawnAt.sms',
          Created: 'collectedAt',
        }),
        env,
      );
      expect(run.code, run.stderr).toBe(1);
      // An opt-out date without its decision is refused, not passed over; a list's own date refused is not replaced by Created.
      // A time refused when recorded is named by the column it came from: Created, where the list's own date is empty.
      expect(run.json).toMatchObject({
        rows: 7,
        imported: 4,
        refused: 3,
        errors: [
          { line: 4, field: 'SMS', message: 'is empty, but SMS opt-out date gives a withdrawal of its decision' },
          { line: 5, field: 'Newsletter date', message: expect.stringMatching(/^is not a date-time/) as unknown },
          { line: 6, field: 'Created', message: 'must be in the past' },
        ],
      });
      await withService(async (service) => {
        const rows = await allRecords(client(service.app, tenant));
        expect(rows.map((r) => [r.userReference, r.purpose, r.consentGiven, r.collectedAt, r.withdrawnAt]).sort()).toEqual([
          ['a@example.com', 'newsletter', true, '2023-02-01T10:00:00.000Z', null],
          ['a@example.com', 'sms', true, '2023-03-01T10:00:00.000Z', '2024-06-01T10:00:00.000Z'],
          ['b@example.com', 'newsletter', false, '2022-01-02T00:00:00.000Z', null],
          ['b@example.com', 'sms', true, '2023-04-01T10:00:00.000Z', null],
        ]);
      });
    },
    120_000,
  );

  itReading(
    "cells listing purposes (Didomi, OneTrust): a decision per purpose named, by another platform's id through an alias",
    async () => {
      const tenant = await tenantWithPurposes('Lists', [
        ['newsletter', 'NEWSLETTER'],
        ['sms', 'SMS'],
        ['analytics', 'ANALYTICS'],
      ]);
      // Didomi's export: the purposes a user enabled and those disabled, each cell a list.
      const didomi = join(files, `lists-${engine.name.length}.csv`);
      writeFileSync(
        didomi,
        [
          'user_id,enabled_purposes,disabled_purposes,updated_at',
          'd-1,"newsletter,sms",analytics,2024-05-01T00:00:00Z',
          'd-2,,,2024-05-02T00:00:00Z',
          'd-3,postcards,,2024-05-03T00:00:00Z',
        ].join('\n') + '\n',
      );
      const args = importArgs(tenant.tenantId, didomi, {
        user_id: 'userReference',
        enabled_purposes: 'purposes.given',
        disabled_purposes: 'purposes.rejected',
        updated_at: 'collectedAt',
      });
      const run = await cli(args, env);
      expect(run.code, run.stderr).toBe(1);
      expect(run.json).toMatchObject({
        rows: 5,
        imported: 3,
        refused: 2,
        errors: [
          { line: 3, field: 'enabled_purposes, disabled_purposes', message: 'are all empty: the row gives no decision' },
          {
            line: 4,
            field: 'enabled_purposes',
            message: expect.stringMatching(/^no purpose postcards in this tenant.*; --purpose-alias postcards=PURPOSE names it/) as unknown,
          },
        ],
      });
      expect((await cli(args, env)).json).toMatchObject({ rows: 5, imported: 0, alreadyImported: 3, refused: 2 });

      // OneTrust's consent log: the groups string as its cookie holds it, each group by OneTrust's id; C0001 (necessary) left out.
      const onetrust = join(files, `groups-${engine.name.length}.jsonl`);
      writeFileSync(
        onetrust,
        JSON.stringify({ identifier: 'o-1', groups: 'C0001:1,C0002:0,C0003:1', date: '2024-06-01T00:00:00Z' }) + '\n',
      );
      const groups = [
        ...importArgs(tenant.tenantId, onetrust, { identifier: 'userReference', groups: 'purposes.decisions', date: 'collectedAt' }),
        ...['C0001=-', 'C0002=analytics', 'C0003=NEWSLETTER'].flatMap((a) => ['--purpose-alias', a]),
      ];
      const fromGroups = await cli(groups, env);
      expect(fromGroups.code, fromGroups.stderr).toBe(0);
      expect(fromGroups.json).toMatchObject({ rows: 2, imported: 2, refused: 0 });
      await withService(async (service) => {
        const rows = await allRecords(client(service.app, tenant));
        expect(rows.map((r) => [r.userReference, r.purpose, r.consentGiven, r.collectedAt]).sort()).toEqual([
          ['d-1', 'analytics', false, '2024-05-01T00:00:00.000Z'],
          ['d-1', 'newsletter', true, '2024-05-01T00:00:00.000Z'],
          ['d-1', 'sms', true, '2024-05-01T00:00:00.000Z'],
          ['o-1', 'analytics', false, '2024-06-01T00:00:00.000Z'],
          ['o-1', 'newsletter', true, '2024-06-01T00:00:00.000Z'],
        ]);
      });
      // iubenda's consent database: nested objects, named by their path; preferences an object of purpose → decision.
      const iubenda = join(files, `nested-${engine.name.length}.jsonl`);
      const consent = {
        id: 'iub-1',
        timestamp: '2024-07-01T00:00:00Z',
        subject: { id: 's-9', email: 'i@example.com' },
        preferences: { newsletter: true, sms: false },
        proofs: [{ content: '{}', form: '<form></form>' }],
      };
      writeFileSync(iubenda, JSON.stringify(consent) + '\n');
      const nested = await cli(
        importArgs(tenant.tenantId, iubenda, {
          id: 'id',
          'subject.email': 'userReference',
          'subject.id': 'metadata.subjectId',
          timestamp: 'collectedAt',
          preferences: 'purposes.decisions',
          proofs: '-',
        }),
        env,
      );
      expect(nested.code, nested.stderr).toBe(0);
      expect(nested.json).toMatchObject({ rows: 2, imported: 2 });
      await withService(async (service) => {
        const rows = (await allRecords(client(service.app, tenant))) as (Row & { metadata: Record<string, unknown> })[];
        expect(rows.filter((r) => r.userReference === 'i@example.com').map((r) => [r.purpose, r.consentGiven, r.metadata])).toEqual(
          expect.arrayContaining([
            ['newsletter', true, { subjectId: 's-9' }],
            ['sms', false, { subjectId: 's-9' }],
          ]),
        );
      });
      // An alias to a purpose the tenant lacks is refused before a row.
      const unknown = await cli([...groups, '--purpose-alias', 'C0004=postcards'], env);
      expect(unknown.code, unknown.stderr).toBe(2);
      expect(unknown.stderr).toMatch(/--purpose-alias C0004=postcards: no purpose postcards in this tenant/);
    },
    120_000,
  );

  itReading(
    "each run (not a dry run) is in the tenant's audit trail: the file's name and SHA-256, what came of its rows",
    async () => {
      const tenant = await createTenant('Audited import');
      await withService(async (service) => publishAll(client(service.app, tenant)));
      const file = join(files, `audited-${engine.name.length}.csv`);
      const text = [
        'email,given,when,purpose,policyVersion',
        'y@example.com,yes,2024-01-01T00:00:00Z,newsletter,2.0.0',
        'z@example.com,perhaps,2024-01-01T00:00:00Z,newsletter,2.0.0',
      ];
      writeFileSync(file, text.join('\n') + '\n');
      const args = importArgs(tenant.tenantId, file, { email: 'userReference', given: 'consentGiven', when: 'collectedAt' });
      const dry = await cli([...args, '--dry-run'], env);
      const first = await cli(args, env);
      const second = await cli(args, env);
      // The summary names the entry each run wrote (none for a dry run), and stderr says where it is.
      expect(dry.json).not.toHaveProperty('auditEntry');
      expect(first.stderr).toContain(
        `In the audit trail as history.imported ${(first.json as { auditEntry: { id: string } }).auditEntry.id}`,
      );
      await withService(async (service) => {
        const res = await client(service.app, tenant).get('/api/v1/audit-log?action=history.imported');
        expect(res.statusCode, res.body).toBe(200);
        const entries = (
          res.json().data as { id: string; actor: unknown; target: { type: string; id: string }; details: Record<string, unknown> }[]
        ).reverse();
        // The dry run wrote nothing; each real run is one entry, by the command line.
        const sha256 = createHash('sha256').update(readFileSync(file)).digest('hex');
        const run = { file: `audited-${engine.name.length}.csv`, fileSha256: sha256, rows: 2, refused: 1 };
        expect(entries.map((e) => e.details)).toEqual([
          { ...run, imported: 1, alreadyImported: 0, withdrawn: 0, startedAt: expect.any(String) as unknown },
          { ...run, imported: 0, alreadyImported: 1, withdrawn: 0, startedAt: expect.any(String) as unknown },
        ]);
        expect(entries.every((e) => (e.actor as { type: string }).type === 'cli' && e.target.type === 'import')).toBe(true);
        expect(new Set(entries.map((e) => e.target.id)).size).toBe(2);
        const named = [first, second].map((r) => (r.json as { auditEntry: unknown }).auditEntry);
        expect(named).toEqual(entries.map((e) => ({ id: e.id, importId: e.target.id, fileSha256: sha256 })));
        // A proof is asked for by that id (503 until the first checkpoint is signed; an unknown id is 404).
        const proof = await client(service.app, tenant).get(`/api/v1/audit-log/${(named[0] as { id: string }).id}/proof`);
        expect([200, 503], proof.body).toContain(proof.statusCode);
      });
    },
    120_000,
  );

  itReading(
    '--no-webhooks: its decisions go to no webhook; an import without it is sent as any record',
    async () => {
      const tenant = await createTenant('Quiet');
      // A webhook on a loopback port nothing listens on: what the subscription queues is what counts here.
      const hooked = { ...env, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' };
      await withServiceIn(hooked, async (service) => {
        const api = client(service.app, tenant);
        await publishAll(api);
        const hook = await api.post('/api/v1/webhooks', { url: 'https://127.0.0.1:9/hook', events: ['*'] });
        expect(hook.statusCode, hook.body).toBe(201);
      });
      const header = 'userReference,consentGiven,collectedAt,withdrawnAt,purpose,policyVersion';
      const quiet = join(files, `quiet-${engine.name.length}.csv`);
      writeFileSync(
        quiet,
        `${header}\nq-1,yes,2025-01-02T03:04:05Z,2025-06-01T00:00:00Z,newsletter,2.0.0\nq-2,no,2025-01-03T03:04:05Z,,newsletter,2.0.0\n`,
      );
      const loud = join(files, `loud-${engine.name.length}.csv`);
      writeFileSync(loud, `${header}\nl-1,yes,2025-01-04T03:04:05Z,,newsletter,2.0.0\n`);
      const first = await cli(['import', '--tenant', tenant.tenantId, '--file', quiet, '--no-webhooks'], env);
      expect(first.code, first.stderr).toBe(0);
      expect(first.json).toMatchObject({ imported: 2 });
      const second = await cli(['import', '--tenant', tenant.tenantId, '--file', loud], env);
      expect(second.code, second.stderr).toBe(0);

      await withServiceIn(hooked, async (service) => {
        const records = await allRecords(client(service.app, tenant));
        const idOf = (ref: string) => records.find((r) => r.userReference === ref)!.id;
        const queued = async () => {
          const rows = await sql<{ event_type: string; payload: string }>`
          SELECT event_type, payload FROM webhooks.deliveries WHERE tenant_id = ${tenant.tenantId}::uuid`.execute(service.store.db);
          return rows.rows.map((r) => [r.event_type, (JSON.parse(r.payload) as { data: { id: string } }).data.id]);
        };
        // The subscription reads the ledger in order: once the later import is queued, the earlier one was read.
        await waitUntil(async () => (await queued()).some(([, id]) => id === idOf('l-1')), { what: 'the delivery of l-1' });
        expect(await queued()).toEqual([['consent.created', idOf('l-1')]]);
        // The records themselves are as any import's: q-1 withdrawn at its original time.
        expect(records.find((r) => r.userReference === 'q-1')).toMatchObject({ status: 'withdrawn', imported: true });
      });
    },
    120_000,
  );

  itReading(
    'JSON lines import the same way',
    async () => {
      const tenant = await createTenant('Lines');
      await withService(async (service) => publishAll(client(service.app, tenant)));
      const file = join(files, `lines-${engine.name.length}.jsonl`);
      writeFileSync(
        file,
        [
          JSON.stringify({
            userReference: 'j1',
            consentGiven: true,
            collectedAt: '2020-02-02T02:02:02.222Z',
            policyType: 'custom',
            purpose: 'newsletter',
            policyVersion: '2.0.0',
            metadata: { source: 'crm', score: 3 },
          }),
          '{"userReference": "j2", broken',
          JSON.stringify({
            user_reference: 'j3',
            consent_given: false,
            collected_at: '2020-02-03T00:00:00Z',
            policy_type: 'privacy_policy',
            policy_version: '1.0.0',
          }),
        ].join('\n'),
      );
      // A --map naming a key no line has (a typo) cannot be checked against a header: it is said at the end.
      const run = await cli(['import', '--tenant', tenant.tenantId, '--file', file, '--map', 'chanel=metadata.channel'], env);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toContain('--map chanel: no line of the file has such a key, so nothing was read from it.');
      expect(run.json).toMatchObject({
        rows: 3,
        imported: 2,
        refused: 1,
        errors: [{ line: 2, field: 'line', message: 'is not JSON' }],
      });
      await withService(async (service) => {
        const rows = (await allRecords(client(service.app, tenant))) as (Row & { metadata: unknown })[];
        expect(rows.find((r) => r.userReference === 'j1')).toMatchObject({
          collectedAt: '2020-02-02T02:02:02.222Z',
          metadata: { source: 'crm', score: 3 },
        });
        expect(rows.find((r) => r.userReference === 'j3')).toMatchObject({ consentGiven: false, policyType: 'privacy_policy' });
      });

      // A JSON array, pretty-printed, is not JSON lines: refused as a whole, naming the fix, not line by line.
      const array = join(files, `array-${engine.name.length}.jsonl`);
      writeFileSync(array, JSON.stringify([{ userReference: 'a1', consentGiven: true }], null, 2));
      const refused = await cli(['import', '--tenant', tenant.tenantId, '--file', array], env);
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.json.error).toMatchObject({ code: 'USAGE', message: expect.stringMatching(/holds a JSON array, not JSON lines/) });
    },
    120_000,
  );

  itReading(
    'a line repeated in the file, or a source id given twice, is one decision: the others are counted as found',
    async () => {
      const tenant = await createTenant('Repeats');
      await withService(async (service) => publishAll(client(service.app, tenant)));
      const file = join(files, `repeats-${engine.name.length}.csv`);
      const row = (id: string, ref: string, given: string) => `${id},${ref},${given},2020-03-01T00:00:00Z,privacy_policy,1.0.0`;
      writeFileSync(
        file,
        `${['id,userReference,consentGiven,collectedAt,policyType,policyVersion', row('r1', 'p1', 'yes'), row('r1', 'p1', 'yes'), row('r2', 'p2', 'no'), row('r2', 'p2', 'yes'), row('r3', 'p3', 'yes')].join('\n')}\n`,
      );
      const run = await cli(['import', '--tenant', tenant.tenantId, '--file', file], env);
      expect(run.code, run.stderr).toBe(0);
      expect(run.json).toMatchObject({ rows: 5, imported: 3, alreadyImported: 2, refused: 0 });
      await withService(async (service) => {
        const rows = await allRecords(client(service.app, tenant));
        // The first of each id stands, as a later run finding it would leave it.
        expect(rows.map((r) => [r.userReference, r.consentGiven]).sort()).toEqual([
          ['p1', true],
          ['p2', false],
          ['p3', true],
        ]);
      });
    },
    120_000,
  );

  itReading(
    'a repeated row that says the record was withdrawn withdraws it in the same run, as a run again would; the dry run counts it once',
    async () => {
      const tenant = await createTenant('Repeated withdrawal');
      await withService(async (service) => publishAll(client(service.app, tenant)));
      const head = 'id,userReference,consentGiven,collectedAt,policyType,policyVersion,withdrawnAt';
      const row = (id: string, ref: string, out = '') => `${id},${ref},yes,2026-02-01T00:00:00Z,privacy_policy,1.0.0,${out}`;
      // An event log's export: the decision, then the same record again once withdrawn (twice for w2).
      const file = join(files, 'repeated-withdrawal.csv');
      writeFileSync(
        file,
        `${[head, row('w1', 'y1'), row('w1', 'y1', '2026-04-01T00:00:00Z'), row('w2', 'y2'), row('w2', 'y2', '2026-04-02T00:00:00Z'), row('w2', 'y2', '2026-04-03T00:00:00Z'), row('w3', 'y3')].join('\n')}\n`,
      );
      const args = ['import', '--tenant', tenant.tenantId, '--file', file];
      const dry = await cli([...args, '--dry-run'], env);
      expect(dry.json).toMatchObject({ rows: 6, imported: 3, alreadyImported: 3, withdrawn: 2, refused: 0 });
      const run = await cli(args, env);
      expect(run.code, run.stderr).toBe(0);
      expect(run.json).toMatchObject({ rows: 6, imported: 3, alreadyImported: 3, withdrawn: 2, refused: 0 });
      const again = await cli([...args, '--dry-run'], env);
      expect(again.json).toMatchObject({ rows: 6, imported: 0, alreadyImported: 6, withdrawn: 0 });
      await withService(async (service) => {
        const rows = await allRecords(client(service.app, tenant));
        expect(rows.map((r) => [r.userReference, r.status, r.withdrawnAt]).sort()).toEqual([
          ['y1', 'withdrawn', '2026-04-01T00:00:00.000Z'],
          ['y2', 'withdrawn', '2026-04-02T00:00:00.000Z'],
          ['y3', 'active', null],
        ]);
      });
    },
    120_000,
  );

  itReading(
    'what JSON.parse would hide is refused by row: a key given twice, an integer past 2^53; an empty CSV is refused whole',
    async () => {
      const tenant = await createTenant('Hidden JSON');
      await withService(async (service) => publishAll(client(service.app, tenant)));
      const jsonl = join(files, 'hidden.jsonl');
      const line = (ref: string, rest = '') =>
        `{"userReference":"${ref}","consentGiven":true,"collectedAt":"2020-01-01T00:00:00Z","policyType":"privacy_policy","policyVersion":"1.0.0"${rest}}`;
      writeFileSync(
        jsonl,
        `${[line('j1', ',"consentGiven":false'), line('j2', ',"metadata":{"a":1,"a":2}'), line('j3', ',"metadata":{"n":12345678901234567890}'), line('j4', ',"metadata":{"n":9007199254740991}')].join('\n')}\n`,
      );
      const fromLines = await cli(['import', '--tenant', tenant.tenantId, '--file', jsonl], env);
      expect(fromLines.code, fromLines.stderr).toBe(1);
      expect(fromLines.json).toMatchObject({ rows: 4, imported: 1, refused: 3 });
      expect(fromLines.json.errors).toEqual([
        { line: 1, field: 'consentGiven', message: 'is given more than once' },
        { line: 2, field: 'metadata.a', message: 'is given more than once' },
        { line: 3, field: 'metadata.n', message: expect.stringMatching(/^is an integer too large to keep exactly/) },
      ]);
      const csv = join(files, 'hidden.csv');
      writeFileSync(
        csv,
        [
          'userReference,consentGiven,collectedAt,policyType,policyVersion,meta',
          'c1,yes,2020-01-01T00:00:00Z,privacy_policy,1.0.0,"{""a"":1,""a"":2}"',
          'c2,yes,2020-01-01T00:00:00Z,privacy_policy,1.0.0,"{""n"":12345678901234567890}"',
          'c3,yes,2020-01-01T00:00:00Z,privacy_policy,1.0.0,"{""n"":5}"',
          '',
        ].join('\n'),
      );
      const fromCells = await cli(['import', '--tenant', tenant.tenantId, '--file', csv, '--map', 'meta=metadata'], env);
      expect(fromCells.json).toMatchObject({ rows: 3, imported: 1, refused: 2 });
      expect(fromCells.json.errors).toEqual([
        { line: 2, field: 'meta.a', message: 'is given more than once' },
        { line: 3, field: 'meta.n', message: expect.stringMatching(/^is an integer too large to keep exactly/) },
      ]);
      await withService(async (service) => {
        const rows = await allRecords(client(service.app, tenant));
        expect(rows.map((r) => [r.userReference, r.metadata]).sort()).toEqual([
          ['c3', { n: 5 }],
          ['j4', { n: 9007199254740991 }],
        ]);
      });
      const empty = join(files, 'empty.csv');
      writeFileSync(empty, '');
      const refused = await cli(['import', '--tenant', tenant.tenantId, '--file', empty], env);
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.json.error.message).toMatch(/empty\.csv is empty: a CSV's first line names its columns/);
      // Refused before a row, as a --map naming no column is: in the audit trail, only the two runs above.
      await withService(async (service) => {
        const trail = (await client(service.app, tenant).get('/api/v1/audit-log?limit=100')).json().data as { action: string }[];
        expect(trail.filter((e) => e.action === 'history.imported')).toHaveLength(2);
      });
    },
    120_000,
  );

  itReading(
    "a UTF-16 file (Excel's Unicode Text: little-endian, tabs) imports, gzipped too; big-endian and Windows-1252 are refused whole, naming the fix",
    async () => {
      const tenant = await createTenant('UTF-16');
      await withService(async (service) => publishAll(client(service.app, tenant)));
      const text =
        'userReference\tconsentGiven\tcollectedAt\tpolicyType\tpolicyVersion\r\nzoë 😀\tyes\t2020-03-01T00:00:00Z\tprivacy_policy\t1.0.0\r\n';
      const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
      const little = join(files, `utf16le-${engine.name.length}.csv`);
      writeFileSync(little, utf16);
      const run = await cli(['import', '--tenant', tenant.tenantId, '--file', little], env);
      expect(run.code, run.stderr).toBe(0);
      expect(run.json).toMatchObject({ rows: 1, imported: 1 });
      const zipped = join(files, `utf16le-${engine.name.length}.csv.gz`);
      writeFileSync(
        zipped,
        gzipSync(Buffer.concat([utf16, Buffer.from('zoé\tno\t2020-03-02T00:00:00Z\tprivacy_policy\t1.0.0\r\n', 'utf16le')])),
      );
      const unzipped = await cli(['import', '--tenant', tenant.tenantId, '--file', zipped], env);
      expect(unzipped.code, unzipped.stderr).toBe(0);
      expect(unzipped.json).toMatchObject({ rows: 2, imported: 1, alreadyImported: 1 });
      const big = join(files, `utf16be-${engine.name.length}.csv`);
      writeFileSync(big, Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]));
      const refused = await cli(['import', '--tenant', tenant.tenantId, '--file', big], env);
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.json.error.message).toMatch(/is UTF-16 big-endian: save it as UTF-8/);
      // Excel's plain CSV: josé and josè would both read jos\uFFFD, one person; no row of it is written.
      const latin1 = join(files, `latin1-${engine.name.length}.csv`);
      const rows = ['jose', 'jos\xe9', 'jos\xe8'].map((name) => `${name}@example.com,yes,2020-03-01T00:00:00Z,privacy_policy,1.0.0`);
      writeFileSync(
        latin1,
        Buffer.from(['userReference,consentGiven,collectedAt,policyType,policyVersion', ...rows, ''].join('\n'), 'latin1'),
      );
      const windows = await cli(['import', '--tenant', tenant.tenantId, '--file', latin1], env);
      expect(windows.code, windows.stderr).toBe(2);
      expect(windows.json.error.message).toMatch(/is not UTF-8: line 3 holds the byte 0xE9.*Nothing was imported/);
      await withService(async (service) => {
        expect((await allRecords(client(service.app, tenant))).map((r) => r.userReference).sort()).toEqual(['zoé', 'zoë 😀']);
      });
    },
    120_000,
  );

  itReading(
    'a row from before 1990 is refused for its time, not sent to look for a version of 1989',
    async () => {
      const tenant = await tenantWithPurposes('Before 1990', [['old', 'Old']]);
      const file = join(files, `before-1990-${engine.name.length}.csv`);
      writeFileSync(file, 'email,given,date\na@example.com,yes,1989-06-01T00:00:00Z\nb@example.com,yes,2020-06-01T00:00:00Z\n');
      const run = await cli(
        [
          ...importArgs(tenant.tenantId, file, { email: 'userReference', given: 'consentGiven', date: 'collectedAt' }),
          '--default',
          'purpose=old',
        ],
        env,
      );
      expect(run.json).toMatchObject({ rows: 2, imported: 1, errors: [{ line: 2, field: 'date', message: 'must not be before 1990' }] });
    },
    60_000,
  );

  itReading(
    'a seeded file of good, bad and repeated rows: every row is counted once, and a run again finds what the first recorded',
    async () => {
      const tenant = await createTenant('Seeded file');
      await withService(async (service) => publishAll(client(service.app, tenant)));
      // A fixed seed, so CI judges the same file every run; IMPORT_SEED explores others (a failure names its seed).
      const seed = Number(process.env.IMPORT_SEED ?? 20261129);
      const random = prng(seed);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
      const quote = (v: string) => (/[",\r\n]/.test(v) || random() < 0.1 ? `"${v.replace(/"/g, '""')}"` : v);
      const past = () =>
        new Date(Date.UTC(2015, 0, 1) + Math.floor(random() * 3_000) * 86_400_000 + Math.floor(random() * 86_400_000)).toISOString();
      const version = () =>
        pick<[string, string, string]>([
          ['', 'privacy_policy', '1.0.0'],
          ['newsletter', '', '2.0.0'],
          ['newsletter', 'custom', ''],
        ]);
      const lines = ['userReference,consentGiven,collectedAt,purpose,policyType,policyVersion,metadata.channel'];
      const good = (): string[] => {
        const [purpose, type, ver] = version();
        const ref = pick(['ann', 'bob', 'carla, "the second"', 'dan\nnewline', 'émile 😀', `user-${Math.floor(random() * 50)}`]);
        return [
          ref,
          pick(['yes', 'no', 'TRUE', 'false', '1', '0', ' granted ']),
          pick([past(), ` ${past()} `]),
          purpose,
          type,
          ver,
          pick(['', 'web', 'app']),
        ];
      };
      for (let i = 0; i < 300; i++) {
        const row = good();
        switch (Math.floor(random() * 14)) {
          case 0:
            row[1] = 'maybe';
            break;
          case 1:
            row[2] = pick(['2020-13-01T00:00:00Z', '2099-01-01T00:00:00Z', '1989-12-31T00:00:00Z', 'yesterday', '']);
            break;
          case 2:
            [row[3], row[4], row[5]] = pick<[string, string, string]>([
              ['', 'privacy_policy', '9.9.9'],
              ['nope', '', ''],
              ['', '', ''],
            ]);
            break;
          case 3:
            row[0] = pick(['', 'x'.repeat(300)]);
            break;
          case 4:
            if (lines.length > 1) {
              lines.push(lines[lines.length - 1]!);
              continue;
            }
            break;
          case 5:
            lines.push('');
            break;
          case 6:
            lines.push(`${row.map(quote).join(',')},extra`);
            continue;
          default:
            break;
        }
        lines.push(row.map(quote).join(','));
      }
      const file = join(files, `seeded-${engine.name.length}.csv`);
      writeFileSync(file, `\uFEFF${lines.join(pick(['\n', '\r\n']))}\n`);

      const first = await cli(['import', '--tenant', tenant.tenantId, '--file', file], env);
      expect([0, 1], first.stderr).toContain(first.code);
      const summary = first.json as {
        rows: number;
        imported: number;
        alreadyImported: number;
        refused: number;
        errors: { line: number }[];
      };
      expect(summary.imported + summary.alreadyImported + summary.refused, `seed ${seed}`).toBe(summary.rows);
      expect(new Set(summary.errors.map((e) => e.line)).size, `seed ${seed}: one refused row, one line`).toBe(summary.refused);
      expect(summary.imported).toBeGreaterThan(100);
      expect(summary.refused).toBeGreaterThan(20);

      const again = await cli(['import', '--tenant', tenant.tenantId, '--file', file], env);
      expect(again.json, `seed ${seed}`).toMatchObject({
        rows: summary.rows,
        imported: 0,
        alreadyImported: summary.imported + summary.alreadyImported,
        refused: summary.refused,
      });
      await withService(async (service) => {
        const res = await client(service.app, tenant).get('/api/v1/consent/search?limit=1');
        expect(res.json().pagination.total, `seed ${seed}`).toBe(summary.imported);
      });
    },
    120_000,
  );

  itReading(
    'a later export of the same history brings the opt-outs made since: each withdrawal once, on the record that stands',
    async () => {
      const tenant = await createTenant('Delta');
      await withService(async (service) => {
        const api = client(service.app, tenant);
        await publishAll(api);
        // A purpose whose decisions hold a month: dl-4's ran out long ago.
        expect(
          (await api.post('/api/v1/purposes', { key: 'sms', name: 'SMS', legalBasis: 'consent', consentValidFor: 'P1M' })).statusCode,
        ).toBe(201);
        await publishPolicy(api, { policyType: 'custom', purpose: 'sms', version: '1.0.0', effectiveDate: '2019-01-01T00:00:00Z' });
      });
      const header = 'id,userReference,consentGiven,collectedAt,withdrawnAt,purpose,policyVersion';
      const first = join(files, 'delta-1.csv');
      writeFileSync(
        first,
        [
          header,
          'd-1,dl-1,yes,2025-03-01T00:00:00Z,,newsletter,2.0.0',
          'd-2,dl-2,yes,2025-03-01T00:00:00Z,,newsletter,2.0.0',
          'd-4,dl-4,yes,2025-03-01T00:00:00Z,,sms,1.0.0',
          '',
        ].join('\n'),
      );
      const initial = await cli(['import', '--tenant', tenant.tenantId, '--file', first], env);
      expect(initial.json, initial.stderr).toMatchObject({ imported: 3, withdrawn: 0 });
      // Taken again later: dl-1 opted out meanwhile; a third row is new. dl-4's opt-out came after
      // its consent had expired: nothing stood to withdraw, as the API answers.
      const later = join(files, 'delta-2.csv');
      const rows = [
        'd-1,dl-1,yes,2025-03-01T00:00:00Z,2026-01-15T00:00:00Z,newsletter,2.0.0',
        'd-2,dl-2,yes,2025-03-01T00:00:00Z,,newsletter,2.0.0',
        'd-3,dl-3,yes,2025-04-01T00:00:00Z,,newsletter,2.0.0',
        'd-4,dl-4,yes,2025-03-01T00:00:00Z,2025-06-01T00:00:00Z,sms,1.0.0',
      ];
      writeFileSync(later, [header, ...rows, ''].join('\n'));
      const dry = await cli(['import', '--tenant', tenant.tenantId, '--file', later, '--dry-run'], env);
      expect(dry.json).toMatchObject({ rows: 4, imported: 1, alreadyImported: 3, withdrawn: 1, refused: 0 });
      const run = await cli(['import', '--tenant', tenant.tenantId, '--file', later], env);
      expect(run.code, run.stderr).toBe(0);
      expect(run.json).toMatchObject({ rows: 4, imported: 1, alreadyImported: 3, withdrawn: 1, refused: 0 });
      expect(run.stderr).toContain('withdrawn now: 1');
      const again = await cli(['import', '--tenant', tenant.tenantId, '--file', later], env);
      expect(again.json).toMatchObject({ rows: 4, imported: 0, alreadyImported: 4, withdrawn: 0, refused: 0 });
      await withService(async (service) => {
        const api = client(service.app, tenant);
        const status = async (ref: string, purpose = 'newsletter') =>
          (await api.get(`/api/v1/consent/user/${ref}/status?purpose=${purpose}`)).json().data;
        expect(await status('dl-1')).toMatchObject({ policies: [{ status: 'withdrawn' }] });
        expect(await status('dl-2')).toMatchObject({ policies: [{ status: 'given' }] });
        expect(await status('dl-4', 'sms')).toMatchObject({ policies: [{ status: 'expired' }] });
        const [record] = (await api.get('/api/v1/consent/user/dl-1')).json().data as { withdrawnAt: string }[];
        expect(record!.withdrawnAt).toBe('2026-01-15T00:00:00.000Z');
      });
    },
    120_000,
  );

  itReading(
    'a gzip-compressed file (.csv.gz, .jsonl.gz) imports as it is; one that is not whole gzip is refused, naming it',
    async () => {
      const tenant = await createTenant('Compressed');
      await withService(async (service) => publishAll(client(service.app, tenant)));
      const csv = join(files, `compressed-${engine.name.length}.csv.gz`);
      writeFileSync(
        csv,
        gzipSync('userReference,consentGiven,collectedAt,policyType,policyVersion\ngz-1,yes,2020-03-01T00:00:00Z,privacy_policy,1.0.0\n'),
      );
      const lines = join(files, `compressed-${engine.name.length}.jsonl.gz`);
      writeFileSync(
        lines,
        gzipSync(
          `${JSON.stringify({ userReference: 'gz-2', consentGiven: false, collectedAt: '2020-03-02T00:00:00Z', purpose: 'newsletter', policyVersion: '2.0.0' })}\n`,
        ),
      );
      for (const file of [csv, lines]) {
        const run = await cli(['import', '--tenant', tenant.tenantId, '--file', file], env);
        expect(run.code, run.stderr).toBe(0);
        expect(run.json).toMatchObject({ rows: 1, imported: 1 });
      }
      await withService(async (service) => {
        const rows = await allRecords(client(service.app, tenant));
        expect(rows.map((r) => [r.userReference, r.consentGiven]).sort()).toEqual([
          ['gz-1', true],
          ['gz-2', false],
        ]);
      });
      const cut = join(files, `cut-${engine.name.length}.csv.gz`);
      writeFileSync(cut, readFileSync(csv).subarray(0, 30));
      const refused = await cli(['import', '--tenant', tenant.tenantId, '--file', cut], env);
      expect(refused.code, refused.stderr).toBe(1);
      expect(refused.json.error.message).toBe(`import failed: ${cut} is not a whole gzip file (unexpected end of file)`);
    },
    120_000,
  );

  itReading(
    'Unix times (--date-format x): a platform that exports milliseconds since 1970 needs no --time-zone',
    async () => {
      const tenant = await createTenant('Unix times');
      await withService(async (service) => publishAll(client(service.app, tenant)));
      const file = join(files, `unix-${engine.name.length}.jsonl`);
      const line = (ref: string, at: unknown) =>
        JSON.stringify({ userReference: ref, consentGiven: true, timestamp: at, purpose: 'newsletter', policyVersion: '2.0.0' });
      writeFileSync(file, `${[line('u1', 1580608922222), line('u2', '1580608922000'), line('u3', '2020-02-02')].join('\n')}\n`);
      const run = await cli(
        ['import', '--tenant', tenant.tenantId, '--file', file, '--map', 'timestamp=collectedAt', '--date-format', 'x'],
        env,
      );
      expect(run.code, run.stderr).toBe(1);
      expect(run.json).toMatchObject({
        imported: 2,
        refused: 1,
        errors: [{ line: 3, field: 'timestamp', message: expect.stringMatching(/as --date-format x writes it/) }],
      });
      await withService(async (service) => {
        const rows = await allRecords(client(service.app, tenant));
        expect(rows.map((r) => [r.userReference, r.collectedAt]).sort()).toEqual([
          ['u1', '2020-02-02T02:02:02.222Z'],
          ['u2', '2020-02-02T02:02:02.000Z'],
        ]);
      });
    },
    120_000,
  );

  itReading(
    'JSON lines: a --map key none of the first 1,000 lines has is named early, and at the end if no line had it',
    async () => {
      const tenant = await createTenant('Sparse keys');
      await withService(async (service) => publishAll(client(service.app, tenant)));
      const file = join(files, `sparse-${engine.name.length}.jsonl`);
      const line = (n: number) =>
        JSON.stringify({
          userReference: `s${n}`,
          consentGiven: true,
          collectedAt: '2021-01-01T00:00:00Z',
          purpose: 'newsletter',
          policyVersion: '2.0.0',
          ...(n === 1050 ? { chan: 'sms' } : {}),
        });
      writeFileSync(file, Array.from({ length: 1100 }, (_, i) => line(i + 1)).join('\n'));
      const run = await cli(
        [
          'import',
          '--tenant',
          tenant.tenantId,
          '--file',
          file,
          '--map',
          'chan=metadata.channel',
          '--map',
          'chanel=metadata.x',
          '--dry-run',
        ],
        env,
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.json).toMatchObject({ rows: 1100, imported: 1100, refused: 0 });
      const early = run.stderr.indexOf(
        '--map chan, chanel: none of the first 1,000 lines has such a key (a typo?); importing on, Ctrl-C stops',
      );
      const late = run.stderr.indexOf('--map chanel: no line of the file has such a key, so nothing was read from it.');
      expect(early, run.stderr).toBeGreaterThanOrEqual(0);
      expect(late, run.stderr).toBeGreaterThan(early);
    },
    120_000,
  );

  if (!engine.name.startsWith('a PostgreSQL server')) {
    it('refuses --threads above 1: the embedded store takes one writer', async () => {
      const file = join(files, 'one-writer.csv');
      writeFileSync(file, 'userReference,consentGiven\nx,true\n');
      // Refused before the tenant is even looked up.
      const run = await cli(['import', '--tenant', '00000000-0000-4000-8000-000000000000', '--file', file, '--threads', '2'], env);
      expect(run.code).toBe(2);
      expect(run.json.error).toMatchObject({ code: 'USAGE', message: expect.stringMatching(/--threads needs a PostgreSQL server/) });
    }, 60_000);
  }

  if (engine.name.startsWith('a PostgreSQL server')) {
    it('--threads 3 records what one thread records: the same decisions, standings and errors by line', async () => {
      const one = await createTenant('One thread');
      const three = await createTenant('Three threads');
      await withService(async (service) => {
        await publishAll(client(service.app, one));
        await publishAll(client(service.app, three));
      });
      // 40 subjects, each deciding up to three times on the newsletter (the last one stands), a row
      // the reading refuses every 17 lines and one the recording thread's checks refuse (a time in
      // the future) every 23: every thread gets rows, and errors, of its own.
      const body = ['userReference,consentGiven,collectedAt,purpose,policyVersion,metadata.n'];
      for (let i = 0; i < 120; i++) {
        const given = (i * 7) % 3 !== 0 ? 'yes' : 'no';
        const at =
          i % 17 === 5
            ? 'yesterday'
            : i % 23 === 11
              ? '2999-01-01T00:00:00Z'
              : `2021-0${1 + (i % 9)}-01T00:00:${String(i % 60).padStart(2, '0')}Z`;
        body.push(`subject-${i % 40},${given},${at},newsletter,2.0.0,${i}`);
      }
      const file = join(files, 'threads.csv');
      writeFileSync(file, `${body.join('\n')}\n`);
      const db = new pg.Client({ connectionString: env.DATABASE_URL });
      await db.connect();
      const dataKeys = async () => Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM privacy.data_keys')).rows[0]!.n);
      const keys0 = await dataKeys();
      const single = await cli(['import', '--tenant', one.tenantId, '--file', file, '--threads', '1'], env);
      const keys1 = await dataKeys();
      const threaded = await cli(['import', '--tenant', three.tenantId, '--file', file, '--threads', '3'], env);
      const keys3 = await dataKeys();
      await db.end();
      // One data key per record imported: each thread's pool, made ahead, is emptied when it ends.
      expect([keys1 - keys0, keys3 - keys1]).toEqual([108, 108]);
      expect(single.code, single.stderr).toBe(1);
      expect(threaded.code, threaded.stderr).toBe(1);
      // Each run is its own audit entry; the rest of the summaries are equal.
      const { seconds: _s1, rowsPerSecond: _r1, threads: t1, auditEntry: _a1, ...firstSummary } = single.json;
      const { seconds: _s3, rowsPerSecond: _r3, threads: t3, auditEntry: _a3, ...threadedSummary } = threaded.json;
      expect([t1, t3]).toEqual([1, 3]);
      expect(threadedSummary).toEqual(firstSummary);
      expect(firstSummary).toMatchObject({ rows: 120, imported: 108, refused: 12 });
      const refused = firstSummary.errors as { line: number; field: string; message: string }[];
      expect(refused.filter((e) => e.message === 'must be in the past').map((e) => [e.line, e.field])).toEqual(
        [13, 36, 59, 82, 105].map((line) => [line, 'collectedAt']),
      );

      await withService(async (service) => {
        const decisions = async (tenant: typeof one) => {
          const api = client(service.app, tenant);
          const rows = [];
          for (let page = 1; ; page++) {
            const res = await api.get(`/api/v1/consent/search?limit=100&page=${page}`);
            rows.push(...(res.json().data as (Row & { metadata: { n: string } })[]));
            if (rows.length >= res.json().pagination.total) break;
          }
          return rows
            .map((r) => `${r.userReference} ${r.consentGiven} ${r.collectedAt} ${r.metadata.n}`)
            .sort()
            .join('\n');
        };
        expect(await decisions(three)).toBe(await decisions(one));
        // A subject's rows went to one thread in the file's order, so the same decision stands.
        for (const ref of ['subject-0', 'subject-1', 'subject-22', 'subject-39']) {
          const standing = async (tenant: typeof one) =>
            (
              (await client(service.app, tenant).get(`/api/v1/consent/user/${ref}/status`)).json().data.policies as Record<
                string,
                unknown
              >[]
            ).map(({ purpose, status, consentGiven, decidedAt, policyVersion }) => ({
              purpose,
              status,
              consentGiven,
              decidedAt,
              policyVersion,
            }));
          expect(await standing(three)).toEqual(await standing(one));
        }
      });
    }, 180_000);

    /** A file of `rows` decisions on the newsletter purpose, each by a user of its own. */
    const bigFile = (name: string, rows: number): string => {
      const file = join(files, name);
      const body = ['userReference,consentGiven,collectedAt,purpose,policyVersion'];
      for (let i = 0; i < rows; i++)
        body.push(`user-${i},${i % 3 === 0 ? 'false' : 'true'},2021-01-01T00:00:${String(i % 60).padStart(2, '0')}Z,newsletter,2.0.0`);
      writeFileSync(file, `${body.join('\n')}\n`);
      return file;
    };
    /**
     * A tenant with the policies, a file of `rows` decisions, and an import of it on two threads
     * started as a child; answers once its first appends are in the ledger, with a count of what
     * the ledger holds for the tenant (on a connection of its own, `db`: end it), the child's exit
     * status once it has exited, and what it wrote.
     */
    async function importUnderWay(name: string, rows: number) {
      const tenant = await createTenant(name);
      await withService(async (service) => publishAll(client(service.app, tenant)));
      const file = bigFile(`${name}.csv`, rows);
      const db = new pg.Client({ connectionString: env.DATABASE_URL });
      await db.connect();
      const count = async () =>
        Number(
          (
            await db.query<{ n: string }>(
              `SELECT count(*) AS n FROM ledger.events WHERE tenant_id = $1 AND event_type = 'ConsentRecorded'`,
              [tenant.tenantId],
            )
          ).rows[0]!.n,
        );
      const { child, output, exited } = cliStarted(['import', '--tenant', tenant.tenantId, '--file', file, '--threads', '2'], env);
      await waitUntil(async () => (await count()) >= 2000, { what: 'the first appends', timeoutMs: 60_000 });
      return { tenant, file, db, count, child, exited, output };
    }

    it('resumes after kill -9 without a duplicate', async () => {
      const rows = 30_000;
      // Killed while two threads append: each thread's appends are whole or absent, as one's are.
      const { tenant, file, db, count, child, exited } = await importUnderWay('Interrupted', rows);
      try {
        child.kill('SIGKILL');
        await exited;
        const before = await count();
        expect(before).toBeLessThan(rows);
        const run = await cli(['import', '--tenant', tenant.tenantId, '--file', file], env);
        expect(run.code, run.stderr).toBe(0);
        expect(run.json.imported + run.json.alreadyImported).toBe(rows);
        expect(run.json.alreadyImported).toBe(before);
        expect(await count()).toBe(rows);
        // Appends this large go in by COPY: the first, a middle and the last record verify, hash and authenticator.
        const ids = (
          await db.query<{ id: string }>(
            `SELECT data->>'consentId' AS id FROM ledger.events WHERE tenant_id = $1 AND event_type = 'ConsentRecorded' ORDER BY global_position`,
            [tenant.tenantId],
          )
        ).rows.map((r) => r.id);
        await withService(async (service) => {
          const api = client(service.app, tenant);
          for (const id of [ids[0], ids[before], ids[rows - 1]]) {
            const verified = (await api.get(`/api/v1/consent/verify?consentId=${id}`)).json().data;
            expect(verified.valid, JSON.stringify(verified)).toBe(true);
          }
        });
      } finally {
        await db.end();
      }
      expect(readFileSync(file, 'utf8').length).toBeGreaterThan(0);
    }, 240_000);

    it('stops on Ctrl-C once the appends under way are in, says so and exits 130; a run again imports the rest', async () => {
      const rows = 60_000;
      const { tenant, file, db, count, child, exited, output } = await importUnderWay('Stopped', rows);
      try {
        child.kill('SIGINT');
        expect(await exited, output.stderr).toBe(130);
        const summary = JSON.parse(output.stdout);
        // What it says it imported is what the ledger holds: the appends under way were let finish.
        expect(summary).toMatchObject({ stoppedBy: 'SIGINT', alreadyImported: 0, refused: 0 });
        expect(summary.imported).toBe(await count());
        expect(summary.rows).toBe(summary.imported);
        expect(summary.imported).toBeLessThan(rows);
        expect(output.stderr).toMatch(/Stopped by SIGINT\. Run the same command again to import the rest/);
        const run = await cli(['import', '--tenant', tenant.tenantId, '--file', file], env);
        expect(run.code, run.stderr).toBe(0);
        expect(run.json).toMatchObject({ rows, alreadyImported: summary.imported, imported: rows - summary.imported });
        expect(await count()).toBe(rows);
        // Both runs are in the tenant's audit trail, the first as stopped by SIGINT.
        const runs = await db.query<{ data: { imported: number; alreadyImported: number; stoppedBy?: string } }>(
          `SELECT data::jsonb AS data FROM ledger.events WHERE tenant_id = $1 AND event_type = 'HistoryImported' ORDER BY global_position`,
          [tenant.tenantId],
        );
        expect(runs.rows.map((r) => r.data)).toMatchObject([
          { imported: summary.imported, alreadyImported: 0, stoppedBy: 'SIGINT' },
          { imported: rows - summary.imported, alreadyImported: summary.imported },
        ]);
        expect(runs.rows[1]!.data.stoppedBy).toBeUndefined();
      } finally {
        await db.end();
      }
    }, 240_000);
  }
});
