import { describe, expect, it } from 'vitest';
import {
  clashOf,
  columnAtAppend,
  columnOf,
  decisionMappings,
  holdsDecision,
  listedDecisions,
  listMapping,
  LISTED_DECISION,
  mappingFor,
  parseDefault,
  parseTarget,
  readRow,
  timeColumnsError,
  unfilledFields,
  type Default,
  type Target,
} from './mapping.js';
import { dateFormat, timeZone, type DateFormat } from './time-zone.js';
import { CSV_COLUMNS } from '../../export/csv.js';

type Options = Partial<Parameters<typeof mappingFor>[1]>;

const mapping = (header: string[], maps: Record<string, string> = {}, options: Options = {}) =>
  mappingFor(header, {
    preset: 'auto',
    maps: new Map(Object.entries(maps).map(([column, target]) => [column, parseTarget(target) as Target])),
    defaults: [],
    timeZone: undefined,
    ...options,
  }).mapping;

/** One row of a file whose header is the row's keys, read with these `--map`s. */
const readWith = (values: Record<string, string>, maps: Record<string, string>, options: Options = {}) =>
  readRow(new Map(Object.entries(values)), mapping(Object.keys(values), maps, options));

describe('import › the column an append-time error names', () => {
  it('names the column that named the version: its id, else its label, else its purpose or type', () => {
    expect(
      columnAtAppend(
        mapping(['email', 'vid', 'ver', 'list'], { vid: 'policyVersionId', ver: 'policyVersion', list: 'purpose' }),
        'policyVersionId',
      ),
    ).toBe('vid');
    expect(columnAtAppend(mapping(['email', 'ver', 'list'], { ver: 'policyVersion', list: 'purpose' }), 'policyVersionId')).toBe('ver');
    expect(columnAtAppend(mapping(['email', 'list'], { list: 'purpose' }), 'policyVersionId')).toBe('list');
    expect(columnAtAppend(mapping(['email', 'policy_type'], {}), 'policyVersionId')).toBe('policy_type');
  });

  it("names this service's export by its version label: its version ids are the source tenant's", () => {
    const exported = ['id', 'userReference', 'policyVersionId', 'policyType', 'policyVersion', 'consentGiven', 'consentHash', 'createdAt'];
    expect(columnAtAppend(mapping(exported), 'policyVersionId')).toBe('policyVersion');
  });

  it('names the field when no column gave it (a --default), and other fields by their column', () => {
    expect(columnAtAppend(mapping(['email']), 'policyVersionId')).toBe('policyVersionId');
    expect(columnAtAppend(mapping(['email', 'when'], { when: 'collectedAt' }), 'collectedAt')).toBe('when');
  });
});

describe('import › the fields no column fills', () => {
  const VERSION = 'policyVersion (or purpose, policyType or policyVersionId)';
  it('names each field every row needs that neither a column nor a --default gives', () => {
    expect(unfilledFields(mapping(['Email Address', 'OPTIN_TIME']))).toEqual(['userReference', 'consentGiven', 'collectedAt', VERSION]);
    expect(unfilledFields(mapping(['email', 'when'], { email: 'userReference', when: 'collectedAt' }))).toEqual(['consentGiven', VERSION]);
    expect(unfilledFields(mapping(['user_reference', 'consent_given', 'collected_at', 'policy_type']))).toEqual([]);
  });

  it("takes a --default as filling its field, and this service's export's createdAt as its time", () => {
    const defaults = ['consentGiven=yes', 'purpose=newsletter'].map((d) => parseDefault(d) as Default);
    const withDefaults = { ...mapping(['email', 'when'], { email: 'userReference', when: 'collectedAt' }), defaults };
    expect(unfilledFields(withDefaults)).toEqual([]);
    const exported = ['id', 'userReference', 'policyVersionId', 'policyType', 'policyVersion', 'consentGiven', 'consentHash', 'createdAt'];
    expect(unfilledFields(mapping(exported))).toEqual([]);
  });
});

describe("import › a file's own words and times", () => {
  const read = (values: Record<string, string>, options: Options = {}) =>
    readWith(
      values,
      { 'E-mail': 'userReference', 'Opt-in': 'consentGiven', Datum: 'collectedAt' },
      {
        timeZone: timeZone('Europe/Berlin')!,
        ...options,
      },
    );
  const row = { 'E-mail': 'anna@example.de', 'Opt-in': 'Ja', Datum: '15.03.2024 10:30', purpose: 'newsletter' };

  it('reads --given/--rejected words in any case and --date-format times in --time-zone', () => {
    const options = { dateFormat: dateFormat('DD.MM.YYYY HH:mm') as DateFormat, decisionWords: { given: ['ja'], rejected: ['nein'] } };
    expect(read(row, options)).toMatchObject({
      row: { userReference: 'anna@example.de', consentGiven: true, collectedAt: '2024-03-15T09:30:00.000Z' },
    });
    expect(read({ ...row, 'Opt-in': 'NEIN' }, options)).toMatchObject({ row: { consentGiven: false } });
    expect(read({ ...row, 'Opt-in': 'Opted_Out' }, options)).toMatchObject({ row: { consentGiven: false } });
    // RFC 3339 with a zone is still read as it is, and the built-in words still hold.
    expect(read({ ...row, 'Opt-in': 'yes', Datum: '2024-03-15T10:30:00Z' }, options)).toMatchObject({
      row: { consentGiven: true, collectedAt: '2024-03-15T10:30:00.000Z' },
    });
  });

  it('names the value as written, and what it may be', () => {
    expect(read(row)).toEqual({
      errors: [
        {
          field: 'Opt-in',
          message: 'is not a decision: "Ja" (true or false, yes or no, given or rejected; --given and --rejected name others)',
        },
        {
          field: 'Datum',
          message:
            'is not a date-time (RFC 3339, or YYYY-MM-DD HH:mm[:ss] in --time-zone): "15.03.2024 10:30"; --date-format PATTERN reads times written otherwise (DD/MM/YYYY HH:mm)',
        },
      ],
    });
    // Without --time-zone: a time with no zone names that option, one written otherwise --date-format.
    const zoneless = (datum: string) => read({ ...row, 'Opt-in': 'yes', Datum: datum }, { timeZone: undefined });
    expect(zoneless('2024-03-15 10:30')).toEqual({
      errors: [
        {
          field: 'Datum',
          message:
            'is not a date-time with a time zone (RFC 3339, e.g. 2021-06-01T08:30:00Z): "2024-03-15 10:30"; --time-zone ZONE reads times written without one',
        },
      ],
    });
    expect(zoneless('15/03/2024')).toEqual({
      errors: [
        {
          field: 'Datum',
          message:
            'is not a date-time with a time zone (RFC 3339, e.g. 2021-06-01T08:30:00Z): "15/03/2024"; --date-format PATTERN reads times written otherwise (DD/MM/YYYY HH:mm)',
        },
      ],
    });
    const options = { dateFormat: dateFormat('DD.MM.YYYY HH:mm') as DateFormat, decisionWords: { given: ['ja'], rejected: ['nein'] } };
    expect(read({ ...row, 'Opt-in': 'vielleicht', Datum: '2024-03-15 10:30:00.5x' }, options)).toEqual({
      errors: [
        { field: 'Opt-in', message: 'is not a decision: "vielleicht" (true or false, yes or no, given or rejected; or ja, nein)' },
        {
          field: 'Datum',
          message: 'is not a date-time as --date-format DD.MM.YYYY HH:mm writes it, nor RFC 3339 with a zone: "2024-03-15 10:30:00.5x"',
        },
      ],
    });
  });
});

describe('import › a status column that says the decision alone', () => {
  const read = (status: string, extra: Record<string, string> = {}, decisionWords?: { given: string[]; rejected: string[] }) =>
    readWith(
      { email: 'u@example.com', Status: status, when: '2024-03-15T10:30:00Z', purpose: 'newsletter', ...extra },
      { email: 'userReference', Status: 'status', when: 'collectedAt', changed: 'withdrawnAt' },
      decisionWords ? { decisionWords } : {},
    );

  it('gives consentGiven from it when no column does: withdrawn, revoked and expired were given', () => {
    expect(read('Granted')).toMatchObject({ row: { consentGiven: true } });
    expect(read('denied')).toMatchObject({ row: { consentGiven: false } });
    expect(read('expired')).toMatchObject({ row: { consentGiven: true } });
    expect(read('Withdrawn', { changed: '2024-05-01T00:00:00Z' })).toMatchObject({
      row: { consentGiven: true, withdrawnAt: '2024-05-01T00:00:00.000Z' },
    });
    expect(read('revoked', { changed: '2024-05-01T00:00:00Z' })).toMatchObject({ row: { consentGiven: true } });
    expect(read('bestätigt', {}, { given: ['bestätigt'], rejected: ['abgelehnt'] })).toMatchObject({ row: { consentGiven: true } });
    // Platforms write opt-in and opt-out their own ways: spaces, `-` and `_` are no part of the word.
    for (const word of ['OPT_IN', 'Opt-In', 'opt in', 'opted_in', 'OptedIn'])
      expect(read(word)).toMatchObject({ row: { consentGiven: true } });
    for (const word of ['OPT_OUT', 'opt-out', 'Opted Out', 'opted_out']) expect(read(word)).toMatchObject({ row: { consentGiven: false } });
    expect(unfilledFields(mapping(['userReference', 'status', 'collectedAt', 'purpose']))).toEqual([]);
  });

  it('refuses a withdrawal without its time, and a status that says no decision, naming the column', () => {
    expect(read('revoked')).toEqual({
      errors: [{ field: 'withdrawnAt', message: 'is required for a withdrawn decision (status "revoked")' }],
    });
    expect(read('pending')).toEqual({
      errors: [
        {
          field: 'Status',
          message:
            'is not a decision: "pending" (given, rejected, withdrawn or expired, or the words of consentGiven; --given and --rejected name others)',
        },
      ],
    });
  });
});

describe('import › columns that would fill one field twice', () => {
  it('refuses two columns giving one field, by their names or a --map, and a column named twice', () => {
    const twoNames = ['user_reference', 'userReference', 'consent_given'];
    expect(clashOf(twoNames, mapping(twoNames))).toBe(
      'columns user_reference and userReference both give userReference: leave one out with --map COLUMN=- (or map it to another field)',
    );
    const mapped = ['user_reference', 'email'];
    expect(clashOf(mapped, mapping(mapped, { email: 'userReference' }))).toMatch(
      /^columns user_reference and email both give userReference/,
    );
    expect(clashOf(mapped, mapping(mapped, { email: 'userReference', user_reference: '-' }))).toBeUndefined();
    const metadata = ['src', 'origin'];
    expect(clashOf(metadata, mapping(metadata, { src: 'metadata.source', origin: 'metadata.source' }))).toMatch(
      /both give metadata\.source/,
    );
    const twice = ['userReference', 'userReference'];
    expect(clashOf(twice, mapping(twice))).toBe('the column userReference is named twice: rename one of the two');
    expect(clashOf(['a', 'a'], mapping(['a', 'a']))).toBeUndefined();
    expect(clashOf(['metadata', 'metadata.source'], mapping(['metadata', 'metadata.source']))).toBeUndefined();
    expect(clashOf(['k', 'userReference'], mapping(['k', 'userReference'], { k: 'userReference' }), 'key')).toMatch(
      /^keys k and userReference/,
    );
  });
});

describe('import › a wide file: a column of decisions per purpose', () => {
  const header = ['email', 'News', 'Texts', 'when'];
  const maps = { email: 'userReference', News: 'consentGiven.newsletter', Texts: 'consentGiven.SMS offers', when: 'collectedAt' };

  it('reads each decision column alone, as the decision on its purpose, and names that column in its errors', () => {
    expect(parseTarget('consentGiven.SMS offers')).toEqual({ decisionOn: 'SMS offers' });
    expect(parseTarget('CONSENTGIVEN.sms')).toEqual({ decisionOn: 'sms' });
    expect(parseTarget('consentGiven.')).toBeNull();
    const wide = mapping(header, maps);
    expect(unfilledFields(wide)).toEqual([]);
    const [news, texts] = decisionMappings(wide);
    const values = new Map(Object.entries({ email: 'a@example.com', News: 'Opt-In', Texts: 'no', when: '2024-01-01T00:00:00Z' }));
    expect(readRow(values, news!)).toMatchObject({ row: { userReference: 'a@example.com', consentGiven: true, purpose: 'newsletter' } });
    expect(readRow(values, texts!)).toMatchObject({ row: { consentGiven: false, purpose: 'SMS offers' } });
    expect(readRow(new Map([...values, ['Texts', 'perhaps']]), texts!)).toMatchObject({
      errors: [{ field: 'Texts', message: expect.stringContaining('is not a decision: "perhaps"') as unknown }],
    });
    expect([columnOf(texts!, 'purpose'), columnOf(texts!, 'consentGiven'), columnOf(texts!, 'collectedAt')]).toEqual([
      'Texts',
      'Texts',
      'when',
    ]);
    // A version deleted while the import runs is named by the column whose purpose found it.
    expect(columnAtAppend(texts!, 'policyVersionId')).toBe('Texts');
    // A file without decision columns is read with its one mapping.
    const narrow = mapping(['email', 'given', 'when', 'purpose'], { given: 'consentGiven', when: 'collectedAt' });
    expect(decisionMappings(narrow)).toEqual([narrow]);
  });

  it('refuses a column that gives the decision or the purpose besides them, and two columns for one purpose', () => {
    expect(clashOf([...header, 'list'], mapping([...header, 'list'], { ...maps, list: 'purpose' }))).toBe(
      'column list gives purpose, which the decision columns (News, Texts) give: leave it out with --map COLUMN=-',
    );
    expect(clashOf([...header, 'status'], mapping([...header, 'status'], maps))).toMatch(/^column status gives status/);
    expect(clashOf([...header, 'More'], mapping([...header, 'More'], { ...maps, More: 'consentGiven.newsletter' }))).toBe(
      'columns News and More both give consentGiven.newsletter: leave one out with --map COLUMN=- (or map it to another field)',
    );
    expect(clashOf(header, mapping(header, maps))).toBeUndefined();
  });

  it("reads a decision's own time columns first, the row's time when its own cell is empty, and no other purpose's", () => {
    expect(parseTarget('collectedAt.SMS offers')).toEqual({ timeOn: { field: 'collectedAt', purpose: 'SMS offers' } });
    expect(parseTarget('WITHDRAWNAT.sms')).toEqual({ timeOn: { field: 'withdrawnAt', purpose: 'sms' } });
    expect(parseTarget('collectedAt.')).toBeNull();
    const timed = {
      ...maps,
      'News date': 'collectedAt.Newsletter',
      'News out': 'withdrawnAt.newsletter',
      'Texts date': 'collectedAt.sms offers',
    };
    const columns = [...header, 'News date', 'News out', 'Texts date'];
    const [news, texts] = decisionMappings(mapping(columns, timed));
    const row = {
      email: 'a@example.com',
      News: 'yes',
      Texts: 'no',
      when: '2024-01-01T00:00:00Z',
      'News date': '2023-05-05T00:00:00Z',
      'News out': '2023-09-09T00:00:00Z',
      'Texts date': '',
    };
    const values = new Map(Object.entries(row));
    expect(readRow(values, news!)).toMatchObject({
      row: { consentGiven: true, collectedAt: '2023-05-05T00:00:00.000Z', withdrawnAt: '2023-09-09T00:00:00.000Z' },
    });
    // Its own time cell empty, the row's time; another purpose's withdrawal is not this one's.
    const textsRow = readRow(values, texts!);
    expect(textsRow).toMatchObject({ row: { consentGiven: false, collectedAt: '2024-01-01T00:00:00.000Z' } });
    expect((textsRow as { row: { withdrawnAt?: string } }).row.withdrawnAt).toBeUndefined();
    // Which column filled it, for an error found when the row is recorded.
    expect(textsRow).toMatchObject({ row: { filledBy: { collectedAt: 'when' } } });
    expect(readRow(values, news!)).not.toHaveProperty('row.filledBy');
    // Its own time refused is not replaced by the row's, and is named by its own column.
    expect(readRow(new Map([...values, ['News date', 'soon']]), news!)).toMatchObject({
      errors: [{ field: 'News date', message: expect.stringMatching(/^is not a date-time/) as unknown }],
    });
    expect([columnOf(news!, 'collectedAt'), columnOf(texts!, 'collectedAt')]).toEqual(['News date', 'Texts date']);
    // A withdrawal time alone holds a decision (refused for want of it); a time of the decision alone does not.
    expect(holdsDecision(new Map([...values, ['News', '']]), news!)).toBe(true);
    expect(readRow(new Map([...values, ['News', '']]), news!)).toMatchObject({
      errors: [{ field: 'News', message: 'is empty, but News out gives a withdrawal of its decision' }],
    });
    expect(holdsDecision(new Map([...values, ['Texts', ''], ['Texts date', '2023-01-01T00:00:00Z']]), texts!)).toBe(false);
  });

  it("needs no column of the row's time when every decision column has its own; refuses a time column on no decision column", () => {
    const own = { email: 'userReference', News: 'consentGiven.newsletter', 'News date': 'collectedAt.newsletter' };
    expect(unfilledFields(mapping(['email', 'News', 'News date'], own))).toEqual([]);
    const half = { ...own, Texts: 'consentGiven.sms' };
    expect(unfilledFields(mapping(['email', 'News', 'News date', 'Texts'], half))).toEqual(['collectedAt']);
    const targets = (m: Record<string, string>) => new Map(Object.entries(m).map(([c, t]) => [c, parseTarget(t)!]));
    expect(timeColumnsError(targets(own))).toBeUndefined();
    expect(timeColumnsError(targets({ ...own, 'Post date': 'withdrawnAt.postcards' }))).toBe(
      '--map Post date=withdrawnAt.postcards: no decision column is on postcards (give it with --map COLUMN=consentGiven.postcards)',
    );
    expect(parseDefault('collectedAt.newsletter=2024-01-01T00:00:00Z')).toMatch(/^--default collectedAt.newsletter=/);
  });
});

describe('import › cells listing purposes (Didomi, OneTrust)', () => {
  const header = ['user', 'enabled', 'disabled', 'groups', 'at'];
  const lists = (maps: Record<string, string>, values: Record<string, unknown>, aliases?: Record<string, string | null>) =>
    listedDecisions(
      new Map(Object.entries(values)),
      mapping(Object.keys(values), { user: 'userReference', at: 'collectedAt', ...maps }),
      aliases && new Map(Object.entries(aliases).map(([id, purpose]) => [id, { id, purpose }])),
    );

  it('reads each purpose a list names as a decision, pairs with their words, a JSON array or object too', () => {
    expect(parseTarget('purposes.given')).toEqual({ purposeList: 'given' });
    expect(parseTarget('Purposes.Decisions')).toEqual({ purposeList: 'decisions' });
    expect(parseTarget('purposes.maybe')).toBeNull();
    const maps = { enabled: 'purposes.given', disabled: 'purposes.rejected' };
    expect(lists(maps, { user: 'u', enabled: 'newsletter, sms', disabled: 'analytics', at: '' })).toEqual({
      decisions: [
        { column: 'enabled', purpose: 'newsletter', given: true },
        { column: 'enabled', purpose: 'sms', given: true },
        { column: 'disabled', purpose: 'analytics', given: false },
      ],
    });
    // OneTrust's groups, as the cookie keeps them (URL-encoded) or not; an alias names the tenant's purpose, - leaves one out.
    const aliases = { c0001: null, c0002: 'analytics' };
    for (const groups of ['C0001:1,C0002:0,C0004:1', 'C0001%3A1%2CC0002%3A0%2CC0004%3A1']) {
      expect(lists({ groups: 'purposes.decisions' }, { user: 'u', groups }, aliases)).toEqual({
        decisions: [
          { column: 'groups', purpose: 'analytics', given: false },
          { column: 'groups', purpose: 'C0004', given: true },
        ],
      });
    }
    expect(lists({ enabled: 'purposes.given' }, { user: 'u', enabled: ['sms'] })).toEqual({
      decisions: [{ column: 'enabled', purpose: 'sms', given: true }],
    });
    expect(lists({ groups: 'purposes.decisions' }, { user: 'u', groups: { sms: false, news: 'yes' } })).toEqual({
      decisions: [
        { column: 'groups', purpose: 'sms', given: false },
        { column: 'groups', purpose: 'news', given: true },
      ],
    });
    expect(lists({ groups: 'purposes.decisions' }, { user: 'u', groups: ['sms:1', 'news:no'] })).toEqual({
      decisions: [
        { column: 'groups', purpose: 'sms', given: true },
        { column: 'groups', purpose: 'news', given: false },
      ],
    });
    expect(lists({ enabled: 'purposes.given' }, { user: 'u', enabled: { sms: true } })).toEqual({
      errors: [{ field: 'enabled', message: 'is a JSON object: a list of purposes is a string (a,b) or an array' }],
    });
    // A CSV cell holding that JSON is read as JSON (the docs' forms), not split at its commas.
    expect(lists(maps, { user: 'u', enabled: '["newsletter","SMS offers"]', disabled: '["analytics"]' })).toEqual({
      decisions: [
        { column: 'enabled', purpose: 'newsletter', given: true },
        { column: 'enabled', purpose: 'SMS offers', given: true },
        { column: 'disabled', purpose: 'analytics', given: false },
      ],
    });
    expect(lists({ groups: 'purposes.decisions' }, { user: 'u', groups: '{"C0001":1,"C0002":0}' })).toEqual({
      decisions: [
        { column: 'groups', purpose: 'C0001', given: true },
        { column: 'groups', purpose: 'C0002', given: false },
      ],
    });
    // Empty cells give no decision.
    expect(lists(maps, { user: 'u', enabled: '', disabled: ' ' })).toEqual({ decisions: [] });
  });

  it('refuses a pair without its decision and a purpose listed as both; reads the listed decision with the list column named', () => {
    expect(lists({ groups: 'purposes.decisions' }, { user: 'u', groups: 'C0002:1,C0003,C0004:perhaps' })).toEqual({
      errors: [
        { field: 'groups', message: 'C0003: has no decision (PURPOSE:1, PURPOSE:0)' },
        { field: 'groups', message: 'C0004: is not a decision: "perhaps"' },
      ],
    });
    expect(lists({ enabled: 'purposes.given', disabled: 'purposes.rejected' }, { user: 'u', enabled: 'sms', disabled: 'SMS' })).toEqual({
      errors: [{ field: 'enabled, disabled', message: 'list SMS as both given and rejected' }],
    });
    const base = mapping(header, { user: 'userReference', enabled: 'purposes.given', disabled: 'purposes.rejected', at: 'collectedAt' });
    expect(unfilledFields(base)).toEqual([]);
    const one = listMapping(base, 'disabled', 'sms');
    const values = new Map<string, unknown>([
      ['user', 'u'],
      ['enabled', 'news'],
      ['disabled', 'sms'],
      ['at', '2024-01-01T00:00:00Z'],
      [LISTED_DECISION, false],
    ]);
    expect(readRow(values, one)).toMatchObject({ row: { userReference: 'u', consentGiven: false, purpose: 'sms' } });
    expect([columnOf(one, 'purpose'), columnOf(one, 'consentGiven')]).toEqual(['disabled', 'disabled']);
    // Lists and decision columns in one file: which decides a purpose is not for the import to guess.
    const mixed = mapping([...header, 'News'], { enabled: 'purposes.given', News: 'consentGiven.news' });
    expect(clashOf([...header, 'News'], mixed)).toMatch(
      /^the columns listing purposes \(enabled\) and the decision columns \(News\) cannot be read together/,
    );
  });
});

describe('import › spaces around a value', () => {
  it('are no part of a time, a version, a purpose, a status or an address, and stay in a reference or an agent', () => {
    const row = readWith(
      {
        userReference: ' u-1 ',
        consentGiven: ' yes ',
        collectedAt: ' 2024-03-01T10:00:00Z ',
        purpose: ' newsletter ',
        policyVersion: ' 1.0.0 ',
        ipAddress: ' 192.0.2.1 ',
        userAgent: ' Agent ',
      },
      {},
    );
    expect(row).toMatchObject({
      row: {
        userReference: ' u-1 ',
        consentGiven: true,
        collectedAt: '2024-03-01T10:00:00.000Z',
        purpose: 'newsletter',
        policyVersion: '1.0.0',
        ipAddress: '192.0.2.1',
        userAgent: ' Agent ',
      },
    });
    // Spaces alone are an empty cell.
    expect(readWith({ userReference: 'u', consentGiven: 'yes', collectedAt: '2024-03-01T10:00:00Z', purpose: '  ' }, {})).toMatchObject({
      errors: [{ field: 'policyVersion', message: expect.stringMatching(/^is required/) }],
    });
  });
});

describe('import › Unix times (--date-format X or x)', () => {
  it('fills a time from seconds or milliseconds, a JSON number too, with no --time-zone', () => {
    const base = { userReference: 'u', consentGiven: 'yes', purpose: 'newsletter' };
    const seconds = { dateFormat: dateFormat('X') as DateFormat };
    expect(readWith({ ...base, collectedAt: '1709287200' }, {}, seconds)).toMatchObject({
      row: { collectedAt: '2024-03-01T10:00:00.000Z' },
    });
    const millis = { dateFormat: dateFormat('x') as DateFormat };
    const json = readRow(
      new Map<string, unknown>([...Object.entries(base), ['collectedAt', 1709287200123]]),
      mapping([...Object.keys(base), 'collectedAt'], {}, millis),
    );
    expect(json).toMatchObject({ row: { collectedAt: '2024-03-01T10:00:00.123Z' } });
    // RFC 3339 is still read as it is; anything else is refused naming the pattern.
    expect(readWith({ ...base, collectedAt: '2024-03-01T10:00:00Z' }, {}, seconds)).toMatchObject({
      row: { collectedAt: '2024-03-01T10:00:00.000Z' },
    });
    expect(readWith({ ...base, collectedAt: '01.03.2024' }, {}, seconds)).toMatchObject({
      errors: [{ field: 'collectedAt', message: expect.stringMatching(/as --date-format X writes it/) }],
    });
  });
});

describe('import › a row with an empty cell the row needs', () => {
  it("names the file's column, as for the user reference, not the field it fills", () => {
    const maps = { email: 'userReference', antwort: 'consentGiven', datum: 'collectedAt', stand: 'status', wd: 'withdrawnAt' };
    const row = (values: Record<string, string>) =>
      readWith({ email: 'v1', antwort: 'yes', datum: '2024-01-01T00:00:00Z', stand: '', wd: '', purpose: 'n', ...values }, maps);
    expect(row({ antwort: '' })).toEqual({ errors: [{ field: 'antwort', message: 'is required' }] });
    expect(row({ datum: '' })).toEqual({ errors: [{ field: 'datum', message: 'is required: the time the decision was originally made' }] });
    expect(row({ stand: 'withdrawn' })).toEqual({
      errors: [{ field: 'wd', message: 'is required for a withdrawn decision (status "withdrawn")' }],
    });
  });
});

describe('import › a status next to the decision', () => {
  it('must say the same decision when it is one, and may say anything else', () => {
    const maps = { email: 'userReference', given: 'consentGiven', stand: 'status', datum: 'collectedAt' };
    const row = (given: string, stand: string) =>
      readWith({ email: 'v1', given, stand, datum: '2024-01-01T00:00:00Z', purpose: 'n' }, maps);
    expect(row('yes', 'denied')).toEqual({ errors: [{ field: 'stand', message: '"denied" says consent rejected, but given says given' }] });
    expect(row('no', 'granted')).toEqual({
      errors: [{ field: 'stand', message: '"granted" says consent given, but given says rejected' }],
    });
    expect(row('yes', 'granted')).toMatchObject({ row: { consentGiven: true } });
    expect(row('no', 'active')).toMatchObject({ row: { consentGiven: false } });
  });
});

describe('import › a row without its user reference', () => {
  it('names the column it reads the reference from; only the export says an empty one is an erased subject', () => {
    const generic = readWith(
      { email: '', consentGiven: 'yes', collectedAt: '2024-03-01T10:00:00Z', purpose: 'n' },
      { email: 'userReference' },
    );
    expect(generic).toEqual({ errors: [{ field: 'email', message: 'is required' }] });
    const exported = readRow(
      new Map(
        Object.entries({
          userReference: '',
          consentGiven: 'true',
          createdAt: '2024-03-01T10:00:00Z',
          policyType: 'custom',
          policyVersion: '1.0.0',
          id: 'x',
          consentHash: 'h',
        }),
      ),
      mapping(['userReference', 'consentGiven', 'createdAt', 'policyType', 'policyVersion', 'id', 'consentHash']),
    );
    expect(exported).toEqual({
      errors: [{ field: 'userReference', message: 'is required (empty in the export: an erased subject cannot be imported)' }],
    });
  });
});

describe('import › a metadata cell', () => {
  it('says what it must be when it is no JSON object', () => {
    const row = { userReference: 'u', consentGiven: 'yes', collectedAt: '2024-03-01T10:00:00Z', purpose: 'n' };
    for (const metadata of ['notanobject', '[1]', '5']) {
      const read = readWith({ ...row, metadata }, {});
      expect(read, metadata).toEqual({ errors: [{ field: 'metadata', message: expect.stringMatching(/^must be a JSON object/) }] });
    }
    expect(readWith({ ...row, metadata: '{"source":"web"}' }, {})).toMatchObject({ row: { metadata: { source: 'web' } } });
  });
});

describe('import › the columns it says it ignores', () => {
  const ignoredOf = (header: readonly string[], maps: Record<string, string> = {}) =>
    mappingFor(header, {
      preset: 'auto',
      maps: new Map(Object.entries(maps).map(([column, target]) => [column, parseTarget(target) as Target])),
      defaults: [],
      timeZone: undefined,
    }).ignored;
  // This service's export's header, as it writes it.
  const EXPORT = [...CSV_COLUMNS];

  it("never names this service's export's createdAt, which stands in for an empty collectedAt", () => {
    expect(ignoredOf(EXPORT)).toEqual(['policyVersionId', 'consentHash', 'tampered', 'expiresAt']);
    // Mapped away on purpose, it is ignored as asked.
    expect(ignoredOf(EXPORT, { createdAt: '-' })).toContain('createdAt');
  });

  it('names the columns of a generic file that no field takes', () => {
    expect(ignoredOf(['user_reference', 'consentGiven', 'favourite colour'])).toEqual(['favourite colour']);
  });
});
