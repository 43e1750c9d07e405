import { isDateTime } from '../../common/dates.js';
import { unescapedCell } from '../../export/csv.js';
import { isLocalDateTime, localInstant, type DateFormat, type TimeZone } from './time-zone.js';
import { isObject } from '../../common/objects.js';
import { jsonTextProblem } from '../../common/json-text.js';

/** What JSON.parse hid in a cell's JSON text (a key twice, an integer past 2^53), named under the cell's column. */
const cellProblem = (column: string, hidden: { field: string; message: string }): RowError => ({
  field: hidden.field === '(body)' ? column : `${column}.${hidden.field}`,
  message: hidden.message,
});

/** The fields a source column can fill (`--map column=field`); `-` ignores a column. */
export const IMPORT_FIELDS = [
  'id',
  'userReference',
  'policyVersionId',
  'policyType',
  'purpose',
  'policyVersion',
  'consentGiven',
  'status',
  'collectedAt',
  'withdrawnAt',
  'ipAddress',
  'userAgent',
  'metadata',
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/** The times a wide file may give per purpose (`--map "SMS date=collectedAt.sms"`). */
export type PurposeTime = 'collectedAt' | 'withdrawnAt';

/**
 * A cell that lists purposes, each a decision of the row: those given (`purposes.given`, Didomi's
 * enabled purposes), those rejected (`purposes.rejected`), or pairs of a purpose and its decision
 * (`purposes.decisions`, OneTrust's groups `C0001:1,C0002:0`).
 */
export type PurposeList = 'given' | 'rejected' | 'decisions';

/**
 * Where each source column goes: a field, a metadata key (`metadata.<key>`), the decision on one
 * purpose (`consentGiven.<purpose>`: a wide file, a column per purpose), the time of that decision
 * (`collectedAt.<purpose>`, `withdrawnAt.<purpose>`), or nowhere. `fallback`: the field's column
 * read only when the decision's own column for it is empty.
 */
export type Target =
  | { field: ImportField; fallback?: true }
  | { metadataKey: string }
  | { decisionOn: string }
  | { timeOn: { field: PurposeTime; purpose: string } }
  | { purposeList: PurposeList }
  | { ignore: true };

/** Fields a wide file's decision columns give (the decision, and its purpose): no other column or `--default` may. */
export const DECIDED_BY_COLUMN: readonly ImportField[] = ['consentGiven', 'status', 'purpose', 'policyType', 'policyVersionId'];

/** How a file is read: which column fills what, and the quirks of the file's producer. */
export interface Mapping {
  name: 'consent-ledger' | 'generic';
  columns: Map<string, Target>;
  /** Fills collectedAt when its own column is empty (this service's export: `createdAt` of a record made live). */
  collectedAtFallback?: string;
  /** This service's export writes `'` before a cell that starts like a formula; taken off here. */
  unquoteFormulas: boolean;
  /** `--default` values, for the fields (and metadata keys) a row leaves empty. */
  defaults: readonly Default[];
  /** `--time-zone`: the zone of times written without one (else such a time is refused). */
  timeZone: TimeZone | undefined;
  /** `--date-format`: how the file writes its times, besides RFC 3339 (read in `timeZone`). */
  dateFormat?: DateFormat;
  /** `--given` / `--rejected`: the file's own words for a decision, besides the built-in ones. */
  decisionWords?: DecisionWords;
  /**
   * One decision column of a wide file, which this mapping reads alone (`decisionMappings`), and
   * the column of its own withdrawal time (`withdrawnAt.<purpose>`), if any; or one purpose a
   * list cell names (`listed`: `listMapping`), its decision in the row's LISTED_DECISION.
   */
  decisionOn?: { column: string; purpose: string; withdrawnAt?: string; listed?: true };
}

/** A file's own words for a decision (`--given ja,oui --rejected nein,non`), lower-cased. */
export interface DecisionWords {
  given: readonly string[];
  rejected: readonly string[];
}

/**
 * The column a field's value is read from (`when` for collectedAt), to name in a row's error as
 * the reading's own errors do; the field itself when no column fills it (a `--default`).
 */
export function columnOf(mapping: Mapping, field: string): string {
  // A wide file's decision column gives both the decision and its purpose.
  if (mapping.decisionOn && (field === 'consentGiven' || field === 'purpose')) return mapping.decisionOn.column;
  return mappedColumn(mapping, field) ?? field;
}

/** The column that fills a field: a decision's own time column before the row's (its fallback). */
const mappedColumn = (mapping: Mapping, field: string): string | undefined => {
  let fallback: string | undefined;
  for (const [column, target] of mapping.columns) {
    if (!('field' in target) || target.field !== field) continue;
    if (!target.fallback) return column;
    fallback ??= column;
  }
  return fallback;
};

/** The fields that name a row's policy version, in the order a column of theirs is named in an error. */
const VERSION_FIELDS = ['policyVersionId', 'policyVersion', 'purpose', 'policyType'] as const;

/**
 * The column to name in an error found when a row was appended (its version deleted meanwhile):
 * for the version, the column that named it (its id, its label, or its purpose or type).
 */
export function columnAtAppend(mapping: Mapping, field: string): string {
  if (field !== 'policyVersionId') return columnOf(mapping, field);
  // A wide file's version is its decision column's purpose (unless a column gives its label).
  if (mapping.decisionOn && !mappedColumn(mapping, 'policyVersion')) return mapping.decisionOn.column;
  const named = VERSION_FIELDS.map((f) => mappedColumn(mapping, f));
  return named.find((column) => column !== undefined) ?? field;
}

/** The columns of this service's CSV export (docs/contract.md), which identify it. */
const EXPORT_MARKERS = ['id', 'userReference', 'policyType', 'policyVersion', 'consentGiven', 'consentHash', 'createdAt'];

const SNAKE = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
/** A generic file's column names: the field's own name, in any case, or in snake_case. */
const GENERIC_NAMES = new Map<string, ImportField>(
  IMPORT_FIELDS.flatMap((f) => [
    [f.toLowerCase(), f],
    [SNAKE(f), f],
  ]),
);

/** A `--default FIELD=VALUE` option: the field (or metadata key) every row leaves empty gets the value. */
export type Default = [target: { field: ImportField } | { metadataKey: string }, value: string];

/**
 * A `--default FIELD=VALUE` option read, or why it cannot be one: FIELD a field (not `id`, which
 * is one row's own, nor `metadata`: give `metadata.<key>`) or a metadata key, VALUE as a cell would
 * hold it.
 */
export function parseDefault(
  text: string,
  { timeZone, dateFormat, decisionWords }: Pick<Mapping, 'timeZone' | 'dateFormat' | 'decisionWords'> = { timeZone: undefined },
): Default | string {
  const eq = text.indexOf('=');
  const target = eq > 0 ? parseTarget(text.slice(0, eq)) : null;
  if (
    !target ||
    'ignore' in target ||
    'decisionOn' in target ||
    'timeOn' in target ||
    'purposeList' in target ||
    ('field' in target && (target.field === 'id' || target.field === 'metadata'))
  ) {
    return `--default ${text}: give FIELD=VALUE, FIELD one of ${IMPORT_FIELDS.filter((f) => f !== 'id' && f !== 'metadata').join(', ')} or metadata.<key>`;
  }
  const value = text.slice(eq + 1);
  if (value === '') return `--default ${text}: the value is empty`;
  const state: RowState = {
    row: { ipAddress: null, userAgent: null, metadata: {} },
    errors: [],
    status: undefined,
    reading: { unquoteFormulas: false, timeZone, dateFormat, decisionWords },
  };
  take(state, `--default ${text.slice(0, eq)}`, target, value);
  const error = state.errors[0];
  return error ? `${error.field}: ${error.message}` : [target, value];
}

/** A `--map` option's target. */
export function parseTarget(text: string): Target | null {
  if (text === '-') return { ignore: true };
  if (text.startsWith('metadata.') && text.length > 9) return { metadataKey: text.slice(9) };
  if (/^consentgiven\./i.test(text) && text.length > 13) return { decisionOn: text.slice(13) };
  const list = /^purposes\.(given|rejected|decisions)$/i.exec(text);
  if (list) return { purposeList: list[1]!.toLowerCase() as PurposeList };
  const time = /^(collectedat|withdrawnat)\.(.+)$/i.exec(text);
  if (time) return { timeOn: { field: time[1]!.toLowerCase() === 'collectedat' ? 'collectedAt' : 'withdrawnAt', purpose: time[2]! } };
  const field = IMPORT_FIELDS.find((f) => f.toLowerCase() === text.toLowerCase());
  return field ? { field } : null;
}

/**
 * The mapping of a file with these columns: this service's export when its columns are there
 * (`preset` says otherwise), else generic names; then each `--map` on top. Columns nothing maps
 * are ignored, and named in `ignored`.
 */
export function mappingFor(
  header: readonly string[],
  {
    preset,
    maps,
    defaults,
    timeZone,
    dateFormat,
    decisionWords,
  }: Pick<ImportInput, 'preset' | 'maps' | 'defaults' | 'timeZone' | 'dateFormat' | 'decisionWords'>,
): { mapping: Mapping; ignored: string[] } {
  const isExport = preset === 'consent-ledger' || (preset === 'auto' && EXPORT_MARKERS.every((c) => header.includes(c)));
  const columns = new Map<string, Target>();
  for (const column of header) {
    const mapped = maps.get(column);
    if (mapped) {
      columns.set(column, mapped);
      continue;
    }
    if (isExport) {
      // The export's ids of policy versions are the source tenant's: versions are found by purpose, type and version.
      if (['policyVersionId', 'consentHash', 'createdAt', 'tampered', 'expiresAt'].includes(column)) columns.set(column, { ignore: true });
      else if ((IMPORT_FIELDS as readonly string[]).includes(column)) columns.set(column, { field: column as ImportField });
      continue;
    }
    if (column.startsWith('metadata.') && column.length > 9) columns.set(column, { metadataKey: column.slice(9) });
    const field = GENERIC_NAMES.get(column.toLowerCase());
    if (field) columns.set(column, { field });
  }
  // The export's createdAt stands in for an empty collectedAt (a record made there, not imported): it is read.
  const fallback = isExport && !maps.has('createdAt') ? 'createdAt' : undefined;
  const ignored = header.filter((c) => c !== fallback && (!columns.has(c) || 'ignore' in columns.get(c)!));
  return {
    mapping: {
      name: isExport ? 'consent-ledger' : 'generic',
      columns,
      ...(fallback ? { collectedAtFallback: fallback } : {}),
      unquoteFormulas: isExport,
      defaults,
      timeZone,
      ...(dateFormat ? { dateFormat } : {}),
      ...(decisionWords ? { decisionWords } : {}),
    },
    ignored,
  };
}

/**
 * Why these columns cannot be read as one row, or undefined: two columns giving the same field (or
 * metadata key), which would leave the row to whichever comes last, or a column named twice.
 *
 * @example
 * clashOf(['user_reference', 'email'], mapping) // 'columns user_reference and email both give userReference: …'
 */
export function clashOf(columns: readonly string[], mapping: Mapping, noun: 'column' | 'key' = 'column'): string | undefined {
  const seen = new Map<string, string>();
  // The mapping holds the file's own columns (or a JSON line's keys) only.
  const decisions = decidingColumnsOf(mapping.columns);
  const lists = listColumnsOf(mapping.columns).map((l) => l.column);
  if (lists.length > 0 && lists.length < decisions.length) {
    return `the ${noun}s listing purposes (${lists.join(', ')}) and the decision ${noun}s (${decisions.filter((d) => !lists.includes(d)).join(', ')}) cannot be read together: import them in two runs`;
  }
  for (const column of columns) {
    const target = mapping.columns.get(column);
    if (!target || 'ignore' in target || ('field' in target && target.field === 'metadata')) continue;
    // A wide file's decision columns give the decision and its purpose: a column giving either besides them would contradict them.
    if (decisions.length > 0 && 'field' in target && DECIDED_BY_COLUMN.includes(target.field)) {
      return `${noun} ${column} gives ${target.field}, which the decision ${noun}s (${decisions.join(', ')}) give: leave it out with --map ${noun.toUpperCase()}=-`;
    }
    const what =
      'field' in target
        ? target.field
        : 'decisionOn' in target
          ? `consentGiven.${target.decisionOn}`
          : 'timeOn' in target
            ? `${target.timeOn.field}.${target.timeOn.purpose}`
            : 'purposeList' in target
              ? `purposes.${target.purposeList}`
              : `metadata.${target.metadataKey}`;
    const before = seen.get(what);
    if (before === column) return `the ${noun} ${column} is named twice: rename one of the two`;
    if (before !== undefined) {
      return `${noun}s ${before} and ${column} both give ${what}: leave one out with --map ${noun.toUpperCase()}=- (or map it to another field)`;
    }
    seen.set(what, column);
  }
  return undefined;
}

/** A wide file's decision columns (`--map COLUMN=consentGiven.<purpose>`), in the order they are mapped. */
export function decisionColumnsOf(targets: ReadonlyMap<string, Target>): { column: string; purpose: string }[] {
  return [...targets].flatMap(([column, t]) => ('decisionOn' in t ? [{ column, purpose: t.decisionOn }] : []));
}

/** The columns listing purposes (`--map COLUMN=purposes.given`), in the order they are mapped. */
export function listColumnsOf(targets: ReadonlyMap<string, Target>): { column: string; list: PurposeList }[] {
  return [...targets].flatMap(([column, t]) => ('purposeList' in t ? [{ column, list: t.purposeList }] : []));
}

/** The columns that give each decision and its purpose: a wide file's decision columns, or the columns listing purposes. */
export function decidingColumnsOf(targets: ReadonlyMap<string, Target>): string[] {
  return [...targets].flatMap(([column, t]) => ('decisionOn' in t || 'purposeList' in t ? [column] : []));
}

/** The column of a row's values that holds a listed purpose's decision (no file's column: it has a NUL). */
export const LISTED_DECISION = '\u0000listed decision';

/**
 * The decisions a row's list cells give (`--map Enabled=purposes.given`), each by its purpose as
 * the file names it, or after `aliases` (`--purpose-alias C0002=analytics`; null leaves it out);
 * or why the cells cannot be read: a pair without a decision, a purpose listed as both. A JSON
 * line's list may be an array, and its pairs an object.
 */
export function listedDecisions(
  values: ReadonlyMap<string, unknown>,
  mapping: Mapping,
  aliases: ImportInput['purposeAliases'],
): { decisions: { column: string; purpose: string; given: boolean }[] } | { errors: RowError[] } {
  const found = new Map<string, { column: string; purpose: string; given: boolean }>();
  const errors: RowError[] = [];
  for (const { column, list } of listColumnsOf(mapping.columns)) {
    let value = values.get(column);
    if (isEmptyValue(value)) continue;
    // A CSV cell may hold the JSON a JSON line would (an array of purposes, an object of decisions).
    if (typeof value === 'string' && /^\s*[[{]/.test(value)) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(value) as unknown;
      } catch {
        // Not JSON after all: read as a list of words.
      }
      if (parsed !== undefined) {
        const hidden = jsonTextProblem(value);
        if (hidden) {
          errors.push(cellProblem(column, hidden));
          continue;
        }
        value = parsed;
      }
    }
    let items: [string, unknown][];
    if (isObject(value)) {
      if (list !== 'decisions') {
        errors.push({ field: column, message: 'is a JSON object: a list of purposes is a string (a,b) or an array' });
        continue;
      }
      items = Object.entries(value);
    } else {
      // A JSON array's items, or a cell's: a consent cookie's value as the browser keeps it (C0001%3A1%2CC0002%3A0) decoded.
      const parts = (Array.isArray(value) ? value.map(String) : listItems(typeof value === 'string' ? value : JSON.stringify(value)))
        .map((p) => p.trim())
        .filter((p) => p !== '');
      items =
        list === 'decisions'
          ? parts.map((p) => {
              const at = p.search(/[:=]/);
              return at < 0 ? [p, undefined] : [p.slice(0, at).trim(), p.slice(at + 1).trim()];
            })
          : parts.map((p) => [p, list === 'given']);
    }
    for (const [id, decision] of items) {
      const given = typeof decision === 'boolean' ? decision : decisionOfWord(String(decision ?? ''), mapping.decisionWords);
      if (given === undefined) {
        errors.push({
          field: column,
          message: `${id}: ${decision === undefined ? 'has no decision (PURPOSE:1, PURPOSE:0)' : `is not a decision: ${JSON.stringify(decision)}`}`,
        });
        continue;
      }
      const alias = aliases?.get(id.toLowerCase());
      if (alias?.purpose === null) continue;
      const purpose = alias?.purpose ?? id;
      const before = found.get(purpose.toLowerCase());
      if (before && before.given !== given) {
        errors.push({
          field: before.column === column ? column : `${before.column}, ${column}`,
          message: `list ${purpose} as both given and rejected`,
        });
      }
      found.set(purpose.toLowerCase(), { column, purpose, given });
    }
  }
  return errors.length > 0 ? { errors } : { decisions: [...found.values()] };
}

/** A list cell's items (`a,b`, `a;b`, `a|b`), URL-decoded first when it is (a consent cookie's value). */
function listItems(text: string): string[] {
  let decoded = text;
  if (/%[0-9a-f]{2}/i.test(text)) {
    try {
      decoded = decodeURIComponent(text);
    } catch {
      // Not URL-encoded after all (a lone %): read as written.
    }
  }
  return decoded.split(/[,;|]/);
}

/**
 * The mapping a listed purpose's decision is read with (`listedDecisions`): the row's other
 * columns as they are, the list columns left out, the decision in LISTED_DECISION and the purpose
 * given; an error names the list's column.
 */
export function listMapping(mapping: Mapping, column: string, purpose: string): Mapping {
  const columns = new Map<string, Target>();
  for (const [c, t] of mapping.columns) columns.set(c, 'purposeList' in t ? { ignore: true } : t);
  columns.set(LISTED_DECISION, { field: 'consentGiven' });
  const defaults: Default[] = [...mapping.defaults, [{ field: 'purpose' }, purpose]];
  return { ...mapping, columns, defaults, decisionOn: { column, purpose, listed: true } };
}

/** Whether a time column is on this decision's purpose (named as its decision column names it, in any case). */
const sameText = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** A wide file's columns of a time per purpose (`--map COLUMN=collectedAt.<purpose>`). */
function timeColumnsOf(targets: ReadonlyMap<string, Target>): { column: string; field: PurposeTime; purpose: string }[] {
  return [...targets].flatMap(([column, t]) => ('timeOn' in t ? [{ column, ...t.timeOn }] : []));
}

/**
 * Why a wide file's time columns cannot be read, or undefined: one must name the purpose of a
 * decision column (as it does, in any case), since it times that column's decisions.
 */
export function timeColumnsError(targets: ReadonlyMap<string, Target>): string | undefined {
  const decisions = decisionColumnsOf(targets);
  for (const { column, field, purpose } of timeColumnsOf(targets)) {
    if (!decisions.some((d) => sameText(d.purpose, purpose))) {
      return `--map ${column}=${field}.${purpose}: no decision column is on ${purpose} (give it with --map COLUMN=consentGiven.${purpose})`;
    }
  }
  return undefined;
}

/**
 * The mappings each row of a file is read with, one per decision a row holds: the mapping itself;
 * or for a wide file (`--map COLUMN=consentGiven.<purpose>`) one per decision column, reading that
 * column as consentGiven on its purpose and leaving the other decision columns out. A time column
 * of that purpose (`collectedAt.<purpose>`) gives its time, the row's own column only when its
 * cell is empty; the other purposes' time columns are left out too.
 */
export function decisionMappings(mapping: Mapping): Mapping[] {
  const decisions = decisionColumnsOf(mapping.columns);
  if (decisions.length === 0) return [mapping];
  const times = timeColumnsOf(mapping.columns);
  return decisions.map((decisionOn) => {
    const owned = times.filter((t) => sameText(t.purpose, decisionOn.purpose));
    const own = new Set(owned.map((t) => t.field));
    const withdrawnAt = owned.find((t) => t.field === 'withdrawnAt')?.column;
    const columns = new Map<string, Target>();
    for (const [column, t] of mapping.columns) {
      if (column === decisionOn.column) columns.set(column, { field: 'consentGiven' });
      else if ('decisionOn' in t) columns.set(column, { ignore: true });
      else if ('timeOn' in t)
        columns.set(column, sameText(t.timeOn.purpose, decisionOn.purpose) ? { field: t.timeOn.field } : { ignore: true });
      else if ('field' in t && own.has(t.field as PurposeTime)) columns.set(column, { field: t.field, fallback: true });
      else columns.set(column, t);
    }
    const defaults: Default[] = [...mapping.defaults, [{ field: 'purpose' }, decisionOn.purpose]];
    return { ...mapping, columns, defaults, decisionOn: withdrawnAt === undefined ? decisionOn : { ...decisionOn, withdrawnAt } };
  });
}

/** Whether a cell (or a JSON value) holds nothing: a wide file's empty decision cell is no decision. */
export const isEmptyValue = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * Whether a wide file's row holds the decision this mapping reads: its decision cell, or its own
 * withdrawal time (a withdrawal without its decision is refused, not passed over).
 */
export const holdsDecision = (values: ReadonlyMap<string, unknown>, { decisionOn }: Mapping): boolean =>
  decisionOn !== undefined &&
  (!isEmptyValue(values.get(decisionOn.column)) ||
    (decisionOn.withdrawnAt !== undefined && !isEmptyValue(values.get(decisionOn.withdrawnAt))));

/**
 * The fields every row needs that no column and no `--default` of this mapping fills: each would
 * refuse every row, so the command names them before reading one. The version may be named four
 * ways; it is said as `policyVersion`, the others in its words.
 */
export function unfilledFields(mapping: Mapping): string[] {
  const filled = new Set<string>();
  for (const target of mapping.columns.values()) {
    if ('field' in target) filled.add(target.field);
    // A decision column gives the decision and the purpose (the version in force at collectedAt).
    if ('decisionOn' in target || 'purposeList' in target) filled.add('consentGiven').add('purpose');
  }
  // Without a column of the row's time, each decision column needs a time column of its own.
  const decisions = decisionColumnsOf(mapping.columns);
  const timed = timeColumnsOf(mapping.columns).filter((t) => t.field === 'collectedAt');
  if (decisions.length > 0 && decisions.every((d) => timed.some((t) => sameText(t.purpose, d.purpose)))) filled.add('collectedAt');
  for (const [target] of mapping.defaults) if ('field' in target) filled.add(target.field);
  if (mapping.collectedAtFallback) filled.add('collectedAt');
  // A status column alone may say the decision (given, rejected, withdrawn, expired).
  if (filled.has('status')) filled.add('consentGiven');
  const unfilled = (['userReference', 'consentGiven', 'collectedAt'] as const).filter((f) => !filled.has(f)) as string[];
  if (!VERSION_FIELDS.some((f) => filled.has(f))) {
    unfilled.push('policyVersion (or purpose, policyType or policyVersionId)');
  }
  return unfilled;
}

/** A source row's values by field, before its policy version is found. */
export interface SourceRow {
  id?: string;
  userReference?: string;
  policyVersionId?: string;
  policyType?: string;
  purpose?: string;
  policyVersion?: string;
  consentGiven?: boolean;
  collectedAt?: string;
  withdrawnAt?: string;
  ipAddress: string | null;
  userAgent: string | null;
  metadata: Record<string, unknown>;
  /** The row's column that gave a time where the decision's own cell was empty: named by an error found later. */
  filledBy?: Partial<Record<PurposeTime, string>>;
}

export interface RowError {
  field: string;
  message: string;
}

/** The built-in words of a decision, bare: lower case, without spaces, `-` or `_`; a file's own come with --given and --rejected. */
const GIVEN = new Set(['true', '1', 'yes', 'y', 'given', 'granted', 'accepted', 'optin', 'optedin']);
const REJECTED = new Set(['false', '0', 'no', 'n', 'rejected', 'denied', 'refused', 'declined', 'optout', 'optedout']);
const bare = (word: string) => word.toLowerCase().replace(/[\s_-]+/g, '');
/** Whether a word (any case; `Opt_In`, `opted-in` and `opt in` alike) is a built-in word for consent given. */
export const isGivenWord = (word: string): boolean => GIVEN.has(bare(word));
/** Whether a word is a built-in word for consent rejected (`Opt-Out`, `OPTED_OUT`). */
export const isRejectedWord = (word: string): boolean => REJECTED.has(bare(word));
/** The decision a word says (built-in, or the file's own), or undefined. */
function decisionOfWord(word: string, own: DecisionWords | undefined): boolean | undefined {
  const t = word.trim().toLowerCase();
  if (isGivenWord(t) || own?.given.includes(t)) return true;
  if (isRejectedWord(t) || own?.rejected.includes(t)) return false;
  return undefined;
}
/** Statuses of a consent given that was later withdrawn: the row needs withdrawnAt. */
const WITHDRAWN = new Set(['withdrawn', 'revoked']);

/**
 * The decision a status says when no column gives consentGiven: a consent withdrawn or expired was
 * given; a decision's own words (the file's too) say which. Undefined for another status (active).
 */
function decisionOfStatus(status: string, own: DecisionWords | undefined): boolean | undefined {
  return WITHDRAWN.has(status) || status === 'expired' ? true : decisionOfWord(status, own);
}
/** Fields that name or time something, never free text: spaces around them (`a, b` files) are no part of them. */
const TRIMMED: ReadonlySet<ImportField> = new Set([
  'policyVersionId',
  'policyType',
  'purpose',
  'policyVersion',
  'status',
  'collectedAt',
  'withdrawnAt',
  'ipAddress',
]);

/** An RFC 3339 date-time as the ledger writes times: UTC, with milliseconds. */
const instant = (t: string): string => new Date(t.toUpperCase()).toISOString();

/** How a value is read: the mapping's options that bear on one value (a `--default`'s too). */
type Reading = Pick<Mapping, 'unquoteFormulas' | 'timeZone' | 'dateFormat' | 'decisionWords'>;

interface RowState {
  row: SourceRow;
  errors: RowError[];
  status: string | undefined;
  reading: Reading;
}

/** A value as text (undefined when empty), with the `'` this service's export puts before a formula-like cell taken off. */
function textOf(v: unknown, unquoteFormulas: boolean): string | undefined {
  if (v === null || v === undefined || v === '') return undefined;
  if (typeof v !== 'string') return JSON.stringify(v);
  return unquoteFormulas ? unescapedCell(v) : v;
}

/** Puts one value of a row (a cell, a JSON value or a `--default`) in its field, or says why it cannot go there. */
function take(state: RowState, column: string, target: { field: ImportField } | { metadataKey: string }, value: unknown): void {
  const { row, errors } = state;
  if ('metadataKey' in target) {
    if (value !== null && value !== undefined && value !== '') row.metadata[target.metadataKey] = value;
    return;
  }
  const field = target.field;
  if (field === 'consentGiven') {
    if (typeof value === 'boolean') row.consentGiven = value;
    else {
      const written = textOf(value, state.reading.unquoteFormulas)?.trim();
      if (written === undefined) return;
      const own = state.reading.decisionWords;
      const given = decisionOfWord(written, own);
      if (given !== undefined) row.consentGiven = given;
      else {
        const words = own ? `; or ${[...own.given, ...own.rejected].join(', ')}` : '; --given and --rejected name others';
        errors.push({
          field: column,
          message: `is not a decision: ${JSON.stringify(written)} (true or false, yes or no, given or rejected${words})`,
        });
      }
    }
    return;
  }
  if (field === 'metadata') {
    let parsed: unknown = value;
    if (typeof value === 'string') {
      if (value === '') return;
      try {
        parsed = JSON.parse(value);
      } catch {
        errors.push({ field: column, message: 'must be a JSON object ({"source":"web"}), written as JSON text in a CSV cell' });
        return;
      }
      const hidden = jsonTextProblem(value);
      if (hidden) {
        errors.push(cellProblem(column, hidden));
        return;
      }
    }
    if (parsed === null || parsed === undefined) return;
    if (typeof parsed !== 'object' || Array.isArray(parsed)) errors.push({ field: column, message: 'must be a JSON object' });
    else Object.assign(row.metadata, parsed);
    return;
  }
  const written = textOf(value, state.reading.unquoteFormulas);
  const t = written !== undefined && TRIMMED.has(field) ? written.trim() || undefined : written;
  if (t === undefined) return;
  if (field === 'collectedAt' || field === 'withdrawnAt') {
    // RFC 3339 allows a space for the T; a time without a zone is read in --time-zone, never guessed.
    const spaced = t.length > 10 && t[10] === ' ';
    const rfc3339 = spaced ? `${t.slice(0, 10)}T${t.slice(11)}` : t;
    if (isDateTime(rfc3339)) {
      row[field] = instant(rfc3339);
      return;
    }
    const { timeZone, dateFormat } = state.reading;
    const unix = dateFormat?.toInstant?.(t);
    if (unix !== undefined) {
      row[field] = unix;
      return;
    }
    // Not RFC 3339: as the file's own format writes it, else a time without a zone; read in --time-zone.
    const local = timeZone ? (dateFormat?.toLocal(t) ?? (isLocalDateTime(t) ? t : undefined)) : undefined;
    if (timeZone && local !== undefined) {
      const at = localInstant(local, timeZone);
      if (typeof at === 'string') row[field] = at;
      else errors.push({ field: column, message: `${at.error}: ${JSON.stringify(t)}` });
    } else if (dateFormat) {
      errors.push({
        field: column,
        message: `is not a date-time as --date-format ${dateFormat.pattern} writes it, nor RFC 3339 with a zone: ${JSON.stringify(t)}`,
      });
    } else {
      // Say which option would read it: a zone for a time without one, a format for one written otherwise.
      const hint = isLocalDateTime(t)
        ? '; --time-zone ZONE reads times written without one'
        : '; --date-format PATTERN reads times written otherwise (DD/MM/YYYY HH:mm)';
      const what = timeZone
        ? 'is not a date-time (RFC 3339, or YYYY-MM-DD HH:mm[:ss] in --time-zone)'
        : 'is not a date-time with a time zone (RFC 3339, e.g. 2021-06-01T08:30:00Z)';
      errors.push({ field: column, message: `${what}: ${JSON.stringify(t)}${hint}` });
    }
  } else if (field === 'status') state.status = t.toLowerCase();
  else row[field] = t;
}

/**
 * One source row (CSV cells by column, or a JSON object's values) in the fields of a decision, or
 * the reasons it is not one. Empty cells are absent values, filled by `--default` when it names
 * their field. Times must be RFC 3339 with a zone.
 */
export function readRow(values: ReadonlyMap<string, unknown>, mapping: Mapping): { row: SourceRow } | { errors: RowError[] } {
  const errors: RowError[] = [];
  const row: SourceRow = { ipAddress: null, userAgent: null, metadata: {} };
  const state: RowState = { row, errors, status: undefined, reading: mapping };
  let fallbacks: [string, { field: ImportField }][] | undefined;
  for (const [column, value] of values) {
    const target = mapping.columns.get(column);
    if (!target || 'ignore' in target || 'decisionOn' in target || 'timeOn' in target || 'purposeList' in target) continue;
    if ('field' in target && target.fallback) (fallbacks ??= []).push([column, target]);
    else take(state, column, target, value);
  }
  // The row's time for a decision whose own time cell is empty (not one that was refused).
  for (const [column, target] of fallbacks ?? []) {
    const refused = errors.some((e) => e.field === mappedColumn(mapping, target.field));
    if (row[target.field as keyof SourceRow] !== undefined || refused) continue;
    take(state, column, target, values.get(column));
    if (row[target.field as keyof SourceRow] !== undefined) row.filledBy = { ...row.filledBy, [target.field]: column };
  }
  if (row.collectedAt === undefined && mapping.collectedAtFallback) {
    const t = textOf(values.get(mapping.collectedAtFallback), mapping.unquoteFormulas);
    if (t !== undefined && isDateTime(t)) row.collectedAt = instant(t);
  }
  for (const [target, value] of mapping.defaults) {
    const empty =
      'metadataKey' in target
        ? !(target.metadataKey in row.metadata)
        : target.field === 'status'
          ? state.status === undefined
          : row[target.field as keyof SourceRow] === undefined;
    if (empty) take(state, `--default ${'field' in target ? target.field : `metadata.${target.metadataKey}`}`, target, value);
  }
  const status = state.status;
  if (status !== undefined && WITHDRAWN.has(status) && row.withdrawnAt === undefined) {
    errors.push({ field: columnOf(mapping, 'withdrawnAt'), message: `is required for a withdrawn decision (status "${status}")` });
  }
  // A status that is a decision (denied, given, withdrawn…) must say the decision the row gives.
  if (row.consentGiven !== undefined && status !== undefined) {
    const said = decisionOfStatus(status, mapping.decisionWords);
    if (said !== undefined && said !== row.consentGiven) {
      errors.push({
        field: columnOf(mapping, 'status'),
        message: `${JSON.stringify(status)} says consent ${said ? 'given' : 'rejected'}, but ${columnOf(mapping, 'consentGiven')} says ${row.consentGiven ? 'given' : 'rejected'}`,
      });
    }
  }
  if (row.consentGiven === undefined && status !== undefined && !mappedColumn(mapping, 'consentGiven')) {
    const given = decisionOfStatus(status, mapping.decisionWords);
    if (given !== undefined) row.consentGiven = given;
    else {
      errors.push({
        field: columnOf(mapping, 'status'),
        message: `is not a decision: ${JSON.stringify(status)} (given, rejected, withdrawn or expired, or the words of consentGiven; --given and --rejected name others)`,
      });
    }
  }
  // A field whose column was refused above is not reported missing as well.
  const refused = new Set(errors.map((e) => mapping.columns.get(e.field)).flatMap((t) => (t && 'field' in t ? [t.field] : [])));
  if (row.userReference === undefined) {
    // In this service's export an empty reference is an erased subject's; elsewhere just a missing value.
    const why = mapping.name === 'consent-ledger' ? ' (empty in the export: an erased subject cannot be imported)' : '';
    errors.push({ field: columnOf(mapping, 'userReference'), message: `is required${why}` });
  }
  if (row.consentGiven === undefined && !refused.has('consentGiven') && !refused.has('status')) {
    // A wide file's row read for its decision's withdrawal time alone (holdsDecision).
    const { decisionOn } = mapping;
    if (decisionOn?.withdrawnAt !== undefined) {
      errors.push({ field: decisionOn.column, message: `is empty, but ${decisionOn.withdrawnAt} gives a withdrawal of its decision` });
    } else errors.push({ field: columnOf(mapping, 'consentGiven'), message: 'is required' });
  }
  // Named by the file's column when one is mapped to the field (an empty cell), else by the field.
  if (row.collectedAt === undefined && !refused.has('collectedAt')) {
    errors.push({ field: columnOf(mapping, 'collectedAt'), message: 'is required: the time the decision was originally made' });
  }
  // Without a version, a purpose (or type) names the version in force at collectedAt.
  if (VERSION_FIELDS.every((f) => row[f] === undefined)) {
    errors.push({
      field: 'policyVersion',
      message: 'is required (or policyVersionId, or a purpose or policyType alone: the version in force at collectedAt)',
    });
  }
  return errors.length > 0 ? { errors } : { row };
}

/** The `import` command's arguments, as its `parse` answers them. */
export interface ImportInput {
  tenant: string;
  file: string;
  format: 'csv' | 'jsonl';
  /** The file is gzip-compressed (`.csv.gz`, `.jsonl.gz`): read through gunzip. */
  gzip: boolean;
  preset: 'auto' | 'consent-ledger' | 'generic';
  maps: Map<string, Target>;
  /** `--default FIELD=VALUE`: what a row that leaves the field empty gets. */
  defaults: Default[];
  /** `--time-zone ZONE`: times written without a zone are read in it. */
  timeZone: TimeZone | undefined;
  /** `--date-format PATTERN`: how the file writes its times, besides RFC 3339. */
  dateFormat?: DateFormat;
  /** `--given WORDS`, `--rejected WORDS`: the file's own words for a decision. */
  decisionWords?: DecisionWords;
  /** `--empty WORDS`: the file's own words for an empty cell (lower-cased), read as empty. */
  emptyWords?: ReadonlySet<string>;
  /** `--purpose-alias ID=KEY`, by the id lower-cased: the purpose a list cell names by another platform's id, or null (`ID=-`) to leave out. */
  purposeAliases?: ReadonlyMap<string, { id: string; purpose: string | null }>;
  dryRun: boolean;
  /** false with `--no-webhooks`: the rows' events go to no webhook. */
  webhooks: boolean;
  delimiter: string | undefined;
  /** Record on this many worker threads; undefined: as many as the machine has cores, up to 4 (a PostgreSQL server only). */
  threads: number | undefined;
}
