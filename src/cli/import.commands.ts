import { statSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { isUuid } from '../common/ids.js';
import { UsageError, type Command } from './command.js';
import {
  DECIDED_BY_COLUMN,
  decidingColumnsOf,
  isGivenWord,
  listColumnsOf,
  isRejectedWord,
  IMPORT_FIELDS,
  parseDefault,
  parseTarget,
  timeColumnsError,
  type DecisionWords,
  type ImportField,
  type Default,
  type ImportInput,
  type Target,
} from './import/mapping.js';
import { dateFormat as dateFormatOf, timeZone as zoneNamed } from './import/time-zone.js';

/** `--threads` at most, and by default (the cores, up to this many: past it the server is the limit). */
const MAX_THREADS = 16;

/**
 * `import --tenant ID --file FILE.csv|FILE.jsonl`: history from another platform (docs/purposes.md,
 * Moving in). Each row becomes a decision recorded with its original time (`collectedAt`), under
 * an id derived from the row, so that an interrupted import run again records nothing twice. A
 * bad row is reported with its line and skipped; the others are imported.
 */
export const importCommand: Command = {
  name: 'import',
  usage:
    'import --tenant TENANT_ID --file FILE.csv|FILE.jsonl[.gz] [--map COLUMN=FIELD ...] [--default FIELD=VALUE ...] [--time-zone ZONE] [--date-format PATTERN] [--given WORDS] [--rejected WORDS] [--empty WORDS] [--purpose-alias ID=PURPOSE ...] [--preset auto|consent-ledger|generic] [--delimiter ,|;|tab] [--threads N] [--no-webhooks] [--dry-run]',
  summary:
    'Import decisions made on another platform, with their original times; prints {rows, imported, alreadyImported, withdrawn, refused, errors, seconds, rowsPerSecond, dryRun, threads, auditEntry}',
  details: [
    'Each row is one decision: who (userReference), what (consentGiven: true/false, yes/no, given/rejected, opt-in/out...;',
    'or status), when (collectedAt, RFC 3339 with a zone), and on which policy version: policyVersionId, or',
    'purpose (or policyType) with policyVersion, or purpose (or policyType) alone for the version in force at',
    'collectedAt; a purpose by its key (any case) or its name. Optional: withdrawnAt, ipAddress, userAgent,',
    'metadata (a JSON object), id (the source record id).',
    '',
    'The file is UTF-8, or UTF-16 little-endian with its byte order mark; one with a byte UTF-8 never has',
    '(Windows-1252, Excel\'s plain CSV) is refused before a row is read: save it as "CSV UTF-8".',
    '',
    "A column named like a field fills it (userReference or user_reference); this service's own CSV export is",
    'recognised by its columns (--preset consent-ledger|generic overrides that); in JSON lines, a COLUMN with',
    'dots names a nested value (subject.email). Other columns:',
    `  --map COLUMN=FIELD      FIELD: ${IMPORT_FIELDS.join(', ')}; metadata.<key>; or - to ignore`,
    '  --map COLUMN=consentGiven.PURPOSE   a wide file, a column of decisions per purpose: each row gives a',
    '                          decision on PURPOSE (key or name) when that cell is not empty',
    '  --map COLUMN=collectedAt.PURPOSE    the time of that decision (withdrawnAt.PURPOSE: of its withdrawal),',
    "                          read before the row's collectedAt (withdrawnAt) column, which fills it when empty",
    '  --map COLUMN=purposes.given         a cell listing purposes given (a,b,c; a JSON array), a decision each;',
    '                          purposes.rejected: those rejected; purposes.decisions: pairs (C0001:1,C0002:0)',
    "  --purpose-alias ID=PURPOSE   a listed purpose by the other platform's id (C0002=analytics); ID=- skips it",
    '  --default FIELD=VALUE   fills FIELD where a row leaves it empty (--default purpose=newsletter)',
    '  --time-zone ZONE        the zone of times written without one (Europe/Paris, UTC, +01:00); else refused',
    '  --date-format PATTERN   how the file writes its times, besides RFC 3339: YYYY, MM or M, DD or D, HH or H,',
    '                          mm, ss, anything else as written (DD.MM.YYYY HH:mm, M/D/YYYY); needs --time-zone;',
    '                          or X (Unix time in seconds) or x (in milliseconds), which need no zone',
    "  --given WORDS           the file's own words for consent given, comma-separated (--given ja,oui)",
    "  --rejected WORDS        and for consent rejected (--rejected nein,non); letters' case is ignored",
    '  --empty WORDS           the file\'s own words for an empty cell (--empty "n/a,not specified"): read as',
    "                          empty, so a --default fills it and a wide file's decision cell gives no decision",
    '  --delimiter , ; | tab   else read off the header line',
    '  --threads N             record on N threads, 1 to 16, on a PostgreSQL server (the embedded store takes 1)',
    '  --no-webhooks           send these decisions to no webhook (the receivers have them already)',
    '  --dry-run               check every row and find its version, write nothing',
    '',
    'A CSV that gives no column (nor --default) for who, what, when or the version, or two columns for one',
    'field, is refused before a row is read. A row with fewer cells than the header has the rest empty.',
    'A bad row is reported on stderr with its line and skipped; the rest are imported. Run again after an',
    'interruption (Ctrl-C, even kill -9): rows already in are counted as alreadyImported, never recorded twice.',
    'Exit status 0 when every row is in, 1 when a row was refused, 2 on a usage error. See docs/purposes.md.',
    '',
    'Example: npx consent-ledger import --tenant TENANT_ID --file optins.csv --map Email=userReference \\',
    '  --map Opt-in=consentGiven --map Date=collectedAt --default purpose=newsletter --time-zone Europe/Paris',
  ].join('\n'),
  options: {
    tenant: { type: 'string' },
    file: { type: 'string' },
    map: { type: 'string', multiple: true },
    default: { type: 'string', multiple: true },
    'time-zone': { type: 'string' },
    'date-format': { type: 'string' },
    given: { type: 'string' },
    rejected: { type: 'string' },
    empty: { type: 'string' },
    'purpose-alias': { type: 'string', multiple: true },
    preset: { type: 'string' },
    delimiter: { type: 'string' },
    threads: { type: 'string' },
    'dry-run': { type: 'boolean' },
    'no-webhooks': { type: 'boolean' },
  },
  connections: 6,
  parse(values): ImportInput {
    const tenant = values.tenant;
    if (typeof tenant !== 'string') throw new UsageError('--tenant is required');
    if (!isUuid(tenant)) throw new UsageError('--tenant must be a tenant id (a UUID, as `tenant list` shows it)');
    const file = values.file;
    if (typeof file !== 'string') throw new UsageError('--file is required');
    // A compressed export (`history.csv.gz`) is read as it is: the format is the name's inner extension.
    const gzip = extname(file).toLowerCase() === '.gz';
    const ext = extname(gzip ? file.slice(0, -3) : file).toLowerCase();
    const format = ext === '.csv' ? 'csv' : ext === '.jsonl' || ext === '.ndjson' ? 'jsonl' : undefined;
    if (!format) throw new UsageError('--file must be a .csv or a .jsonl file (or either gzip-compressed, .csv.gz or .jsonl.gz)');
    if (!statSync(resolve(file), { throwIfNoEntry: false })?.isFile()) throw new UsageError(`--file ${file}: no such file`);
    const preset = (values.preset ?? 'auto') as string;
    if (!['auto', 'consent-ledger', 'generic'].includes(preset)) throw new UsageError('--preset must be auto, consent-ledger or generic');
    const maps = new Map<string, Target>();
    for (const m of (values.map as unknown as string[] | undefined) ?? []) {
      const eq = m.lastIndexOf('=');
      const target = eq > 0 ? parseTarget(m.slice(eq + 1)) : null;
      if (!target) {
        throw new UsageError(
          `--map ${m}: give COLUMN=FIELD, FIELD one of ${IMPORT_FIELD_LIST}, metadata.<key>, consentGiven.<purpose> (and its ` +
            `collectedAt.<purpose>, withdrawnAt.<purpose>), purposes.given|rejected|decisions, or - to ignore the column`,
        );
      }
      maps.set(m.slice(0, eq), target);
    }
    const untimed = timeColumnsError(maps);
    if (untimed) throw new UsageError(untimed);
    const purposeAliases = new Map<string, { id: string; purpose: string | null }>();
    for (const a of (values['purpose-alias'] as unknown as string[] | undefined) ?? []) {
      const eq = a.lastIndexOf('=');
      const [id, purpose] = [a.slice(0, eq).trim(), a.slice(eq + 1).trim()];
      if (eq <= 0 || id === '' || purpose === '') throw new UsageError(`--purpose-alias ${a}: give ID=PURPOSE (or ID=- to leave it out)`);
      purposeAliases.set(id.toLowerCase(), { id, purpose: purpose === '-' ? null : purpose });
    }
    if (purposeAliases.size > 0 && listColumnsOf(maps).length === 0) {
      throw new UsageError(
        '--purpose-alias names the purposes of a list cell: map one with --map COLUMN=purposes.given (or .rejected, .decisions)',
      );
    }
    const zone = values['time-zone'];
    const timeZone = typeof zone === 'string' ? zoneNamed(zone) : undefined;
    if (timeZone === null) {
      throw new UsageError(
        `--time-zone ${String(zone)}: no such time zone (an IANA name such as Europe/Paris, UTC, or an offset such as +01:00)`,
      );
    }
    const pattern = values['date-format'];
    const dateFormat = typeof pattern === 'string' ? dateFormatOf(pattern) : undefined;
    if (typeof dateFormat === 'string') throw new UsageError(dateFormat);
    if (dateFormat && !dateFormat.toInstant && !timeZone) {
      throw new UsageError(`--date-format ${dateFormat.pattern}: its times have no zone; give --time-zone too (Europe/Paris, UTC, +01:00)`);
    }
    const decisionWords = decisionWordsOf(values.given, values.rejected);
    const emptyWords = values.empty === undefined ? undefined : wordList('empty', values.empty, 'n/a,none');
    const deciding = emptyWords?.find(
      (w) => isGivenWord(w) || isRejectedWord(w) || decisionWords?.given.includes(w) || decisionWords?.rejected.includes(w),
    );
    if (deciding !== undefined) throw new UsageError(`--empty: ${deciding} is a word for a decision`);
    const defaults: Default[] = [];
    for (const text of (values.default as unknown as string[] | undefined) ?? []) {
      const parsed = parseDefault(text, { timeZone, dateFormat, decisionWords });
      if (typeof parsed === 'string') throw new UsageError(parsed);
      defaults.push(parsed);
    }
    // A wide file's decision columns give each decision and its purpose: a --default for either would contradict them.
    const decisionColumns = decidingColumnsOf(maps);
    const contradicting =
      decisionColumns.length === 0
        ? undefined
        : defaults.map(([t]) => t).find((t): t is { field: ImportField } => 'field' in t && DECIDED_BY_COLUMN.includes(t.field));
    if (contradicting) {
      throw new UsageError(
        `--default ${contradicting.field}: the decision columns (${decisionColumns.join(', ')}) give each row's ${contradicting.field}; leave it out`,
      );
    }
    const d = values.delimiter;
    const delimiter =
      d === undefined ? undefined : d === 'tab' ? '\t' : typeof d === 'string' && [',', ';', '\t', '|'].includes(d) ? d : null;
    if (delimiter === null) throw new UsageError('--delimiter must be , ; | or tab');
    const t = values.threads;
    if (t !== undefined && (typeof t !== 'string' || !/^[0-9]+$/.test(t) || Number(t) < 1 || Number(t) > MAX_THREADS)) {
      throw new UsageError(`--threads must be a whole number from 1 to ${MAX_THREADS}`);
    }
    return {
      tenant: tenant.toLowerCase(),
      file,
      format,
      gzip,
      preset: preset as ImportInput['preset'],
      maps,
      defaults,
      timeZone,
      ...(dateFormat ? { dateFormat } : {}),
      ...(decisionWords ? { decisionWords } : {}),
      ...(emptyWords ? { emptyWords: new Set(emptyWords) } : {}),
      ...(purposeAliases.size > 0 ? { purposeAliases } : {}),
      dryRun: values['dry-run'] === true,
      webhooks: values['no-webhooks'] !== true,
      delimiter,
      threads: t === undefined ? undefined : Number(t),
    };
  },
  load: () => import('./import.run.js').then((m) => m.importCommand),
};

const IMPORT_FIELD_LIST = IMPORT_FIELDS.join(', ');

/** An option's comma-separated words, trimmed and lower-cased; none empty. */
function wordList(option: string, text: unknown, example: string): string[] {
  const list = typeof text === 'string' ? text.split(',').map((w) => w.trim().toLowerCase()) : [];
  if (list.length === 0 || list.some((w) => w === ''))
    throw new UsageError(`--${option}: give words separated by commas (--${option} ${example})`);
  return list;
}

/**
 * `--given WORDS` and `--rejected WORDS` read (comma-separated, lower-cased), or undefined when
 * neither is given. A word may mean one decision only, its own or a built-in one.
 */
function decisionWordsOf(given: unknown, rejected: unknown): DecisionWords | undefined {
  if (given === undefined && rejected === undefined) return undefined;
  const own = {
    given: given === undefined ? [] : wordList('given', given, 'ja,oui'),
    rejected: rejected === undefined ? [] : wordList('rejected', rejected, 'nein,non'),
  };
  const clash = [...own.given.filter((w) => own.rejected.includes(w) || isRejectedWord(w)), ...own.rejected.filter((w) => isGivenWord(w))];
  if (clash.length > 0)
    throw new UsageError(`--given/--rejected: ${[...new Set(clash)].join(', ')} would mean both consent given and rejected`);
  return own;
}
