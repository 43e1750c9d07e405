// What the commands defined in import.commands.ts do once their arguments are parsed: imported by their
// `load` only when one runs, with the store and everything they use (src/cli/README.md).
import { createReadStream, statSync } from 'node:fs';
import { pipeline, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { availableParallelism } from 'node:os';
import { createHash, randomUUID } from 'node:crypto';
import { basename, resolve } from 'node:path';
import cliProgress from 'cli-progress';
import { CommandHandler } from '../application/command-handler.js';
import { ConfigLog } from '../application/config/config-log.js';
import type { ImportOutcome } from '../application/consents/consent.commands.js';
import type { HistoryImported } from '../domain/config/config.events.js';
import { COLLECTED_AT_MIN } from '../domain/consent/consent.decider.js';
import { countingStream } from '../common/counting-stream.js';
import { TenantService } from '../tenants/tenants.service.js';
import { PartialResult, UsageError, type CliIo, type CommandRun } from './command.js';
import { csvRecords, isBlankLine, linesOf, type Line } from './import/csv-records.js';
import { checkedEncoding, EncodingError, type FileEncoding } from './import/encoding.js';
import {
  columnAtAppend,
  clashOf,
  columnOf,
  decidingColumnsOf,
  decisionColumnsOf,
  decisionMappings,
  holdsDecision,
  LISTED_DECISION,
  listColumnsOf,
  listedDecisions,
  listMapping,
  mappingFor,
  readRow,
  unfilledFields,
  type ImportInput,
  type Mapping,
  type RowError,
  type SourceRow,
} from './import/mapping.js';
import { PolicyIndex } from './import/policies.js';
import { openImportSink, type ImportItem } from './import/sink.js';
import { ImportThreads } from './import/threads.js';
import { stoppable, stoppedAnswer, type StopSignal } from './stoppable.js';
import { isObject } from '../common/objects.js';
import { jsonTextProblem } from '../common/json-text.js';

/** Threads by default: the cores, up to this many (past it the server is the limit). */
const DEFAULT_MAX_THREADS = 4;
/** Files from this size (about 40,000 rows) are recorded on threads by default. */
const THREADS_FROM_BYTES = 4 * 1024 * 1024;
/** Rows per atomic append: large enough to carry the ledger's per-append cost, small enough to stay well under a second. */
const ROWS_PER_APPEND = 2000;
/** Appends in flight while the next rows are read and sealed. */
const APPENDS_IN_FLIGHT = 2;
/** JSON lines read before a `--map` key none of them has is named on stderr. */
const MAP_CHECK_LINES = 1000;
/** Row errors the summary lists (all of them go to stderr). */
const ERRORS_LISTED = 1000;

/** What a run of the import did, for the tenant's audit trail. */
type ImportRun = Omit<HistoryImported['data'], 'importId' | 'file' | 'fileSha256' | 'at'>;

/** The audit entry a run wrote: its id (`GET /api/v1/audit-log/{id}/proof`), the run's id and the file's SHA-256. */
interface AuditEntry {
  id: string;
  importId: string;
  fileSha256: string;
}

/** The SHA-256 of a file's bytes, as `sha256sum` prints it. */
async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** A row read from the file, with the line it starts on. */
interface Numbered {
  line: number;
  values: Map<string, unknown>;
}

/** A row sent to be checked and recorded, with its line and how its columns were read (to name them in an error). */
interface Sent {
  line: number;
  item: ImportItem;
  mapping: Mapping;
  /** The row's time columns that filled a decision's empty own ones. */
  filledBy?: SourceRow['filledBy'];
}

interface Importer {
  /** Threads checking and recording the rows (1: this one). */
  threads: number;
  append(items: ImportItem[], expectNew: boolean, now: Date): Promise<ImportOutcome>;
  /** What `append` would refuse, recording nothing (`--dry-run`). */
  check(items: ImportItem[], now: Date): Promise<ImportOutcome>;
}

/** The file's bytes, decompressed when it is gzip; zlib's errors said as such. */
function bytesOf(path: string, input: ImportInput, read: Readable = createReadStream(path)): Readable {
  // pipeline: the file closes when the reader stops early, and a read error reaches the reader.
  return input.gzip ? pipeline(read, createGunzip(), () => {}) : read;
}

/** A .gz that is not gzip, or cut short (zlib's Z_DATA_ERROR, Z_BUF_ERROR), said as such; else the error itself. */
function gzipProblem(error: unknown, input: ImportInput): unknown {
  const code = (error as { code?: unknown }).code;
  if (input.gzip && typeof code === 'string' && code.startsWith('Z_')) {
    return new Error(`${input.file} is not a whole gzip file (${(error as Error).message})`);
  }
  return error;
}

async function importFile(
  path: string,
  size: number,
  input: ImportInput,
  io: CliIo,
  policies: PolicyIndex,
  importer: Importer,
  stopped: () => StopSignal | undefined,
  /** Records the run in the tenant's audit trail (not for a dry run). */
  recordRun?: (run: ImportRun) => Promise<AuditEntry>,
) {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  // The whole file's encoding first: one that is not text the import reads refuses it before a row is written.
  let encoding: FileEncoding;
  try {
    encoding = await checkedEncoding(bytesOf(path, input), input.file);
  } catch (error) {
    if (error instanceof EncodingError) throw new UsageError(error.message);
    throw gzipProblem(error, input);
  }
  const counted = countingStream();
  // Progress counts the bytes of the file as stored (compressed, for a .gz), against its size.
  const text = bytesOf(path, input, createReadStream(path).pipe(counted)).setEncoding(encoding);
  const bar = new cliProgress.SingleBar(
    {
      stream: io.progressStream,
      format: `${input.dryRun ? 'checking' : 'importing'} [{bar}] {percentage}% | {rows} rows | {rate} rows/s | {refused} refused | {duration_formatted}`,
      hideCursor: true,
      noTTYOutput: true,
      notTTYSchedule: 5000,
    },
    cliProgress.Presets.shades_classic,
  );
  const summary = { rows: 0, imported: 0, alreadyImported: 0, withdrawn: 0, refused: 0 };
  const errors: { line: number; field: string; message: string }[] = [];
  let errorsOmitted = 0;
  const refuse = (line: number, problems: readonly RowError[]) => {
    summary.refused++;
    for (const p of problems) {
      io.info(`line ${line}: ${p.field}: ${p.message}`);
      if (errors.length < ERRORS_LISTED) errors.push({ line, ...p });
      else errorsOmitted++;
    }
  };
  const progress = () =>
    bar.update(counted.bytes, {
      rows: summary.rows,
      refused: summary.refused,
      rate: Math.round(summary.rows / Math.max(0.001, (performance.now() - started) / 1000)),
    });
  bar.start(size, 0, { rows: 0, refused: 0, rate: 0 });

  const inFlight = new Set<Promise<void>>();
  let resuming = false;
  let failure: unknown;
  const now = new Date();
  const send = (chunk: Sent[]) => {
    const items = chunk.map((c) => c.item);
    const outcome = input.dryRun ? importer.check(items, now) : importer.append(items, !resuming, now);
    const p = outcome
      .then((outcome) => {
        summary.imported += outcome.recorded;
        summary.alreadyImported += outcome.existing;
        summary.withdrawn += outcome.withdrawn;
        // A run again after an interruption: read before sealing until rows are new again.
        resuming = outcome.existing > 0;
        const byIndex = new Map<number, RowError[]>();
        for (const e of outcome.errors) byIndex.set(e.index, [...(byIndex.get(e.index) ?? []), { field: e.field, message: e.message }]);
        // In the file's order (a chunk split over threads answers thread by thread).
        for (const [index, problems] of [...byIndex].sort((a, b) => a[0] - b[0])) {
          const { line, mapping, filledBy } = chunk[index]!;
          refuse(
            line,
            problems.map((p) => ({ ...p, field: filledBy?.[p.field as keyof typeof filledBy] ?? columnAtAppend(mapping, p.field) })),
          );
        }
        progress();
      })
      .catch((error: unknown) => {
        failure ??= error;
      })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  };

  // The mappings a file's rows are read with: one, or one per decision column of a wide file, or per purpose a list cell names.
  const readings = new WeakMap<Mapping, Mapping[]>();
  const listings = new WeakMap<Mapping, Map<string, Mapping>>();
  const listed = (mapping: Mapping, column: string, purpose: string): Mapping => {
    let byPurpose = listings.get(mapping);
    if (!byPurpose) listings.set(mapping, (byPurpose = new Map()));
    const key = `${column}\u0000${purpose}`;
    let found = byPurpose.get(key);
    if (!found) {
      found = listMapping(mapping, column, purpose);
      if (byPurpose.size < 1000) byPurpose.set(key, found);
    }
    return found;
  };
  const wide = decidingColumnsOf(input.maps);
  const lists = listColumnsOf(input.maps).length > 0;
  let chunk: Sent[] = [];
  try {
    for await (const source of rowsOf(text, input, io)) {
      if (failure || stopped()) break;
      if ('error' in source) {
        summary.rows++;
        refuse(source.line, [source.error]);
        continue;
      }
      // Each decision of the row is a row of the summary: a wide file's row holds one per decision cell that is not empty,
      // a row with list cells one per purpose they name. (A JSON line without any decision key is read with a mapping that has none.)
      let decisions: { mapping: Mapping; values: Numbered['values'] }[];
      if (lists) {
        const found = listedDecisions(source.values, source.mapping, input.purposeAliases);
        if ('errors' in found) {
          summary.rows++;
          refuse(source.line, found.errors);
          continue;
        }
        decisions = found.decisions.map((d) => ({
          mapping: listed(source.mapping, d.column, d.purpose),
          values: new Map(source.values).set(LISTED_DECISION, d.given),
        }));
      } else {
        let all = readings.get(source.mapping);
        if (!all) readings.set(source.mapping, (all = decisionMappings(source.mapping)));
        const held = wide.length === 0 ? all : all.filter((m) => holdsDecision(source.values, m));
        decisions = held.map((mapping) => ({ mapping, values: source.values }));
      }
      if (decisions.length === 0) {
        summary.rows++;
        refuse(source.line, [{ field: wide.join(', '), message: 'are all empty: the row gives no decision' }]);
        continue;
      }
      for (const { mapping, values } of decisions) {
        summary.rows++;
        const row = itemFor(values, mapping, policies);
        if ('errors' in row) refuse(source.line, row.errors);
        else chunk.push({ line: source.line, item: row.item, mapping, ...(row.filledBy ? { filledBy: row.filledBy } : {}) });
      }
      if (chunk.length >= ROWS_PER_APPEND) {
        send(chunk);
        chunk = [];
        while (inFlight.size >= APPENDS_IN_FLIGHT) await Promise.race(inFlight);
        progress();
      }
    }
  } catch (error) {
    // The file refused as a whole (a --map naming no column, a read error): the bar stops before the error is printed.
    bar.stop();
    throw gzipProblem(error, input);
  }
  const signal = stopped();
  // Stopped: the rows read but not sent are not counted; a run again reads them.
  if (signal) summary.rows -= chunk.length;
  else if (chunk.length > 0 && !failure) send(chunk);
  await Promise.all(inFlight);
  progress();
  bar.stop();
  if (failure) throw failure;

  const seconds = Math.round((performance.now() - started) / 10) / 100;
  // The run goes in the tenant's audit trail, stopped or not: what was read, and from which file.
  const auditEntry = await recordRun?.({ ...summary, startedAt, ...(signal ? { stoppedBy: signal } : {}) });
  const result = {
    ...summary,
    ...(auditEntry ? { auditEntry } : {}),
    dryRun: input.dryRun,
    threads: importer.threads,
    seconds,
    rowsPerSecond: Math.round(summary.rows / Math.max(0.01, seconds)),
    // By line: a row refused by the recording side's checks is told when its chunk is answered.
    errors: errors.sort((a, b) => a.line - b.line),
    ...(errorsOmitted > 0 ? { errorsOmitted } : {}),
  };
  const verb = input.dryRun ? 'would import' : 'imported';
  io.info(
    `${summary.rows} row(s)${signal ? ` before ${signal}` : ''}: ${verb} ${summary.imported}` +
      (summary.alreadyImported > 0 ? `, ${summary.alreadyImported} imported before` : '') +
      (summary.withdrawn > 0 ? ` (${input.dryRun ? 'would withdraw' : 'withdrawn now'}: ${summary.withdrawn})` : '') +
      `, ${summary.refused} refused (${seconds} s).`,
  );
  if (auditEntry) io.info(`In the audit trail as history.imported ${auditEntry.id} (file SHA-256 ${auditEntry.fileSha256}).`);
  if (signal) {
    const message = `Stopped by ${signal}. Run the same command again to import the rest: the rows imported so far are found, not recorded twice.`;
    return stoppedAnswer(io, signal, message, result);
  }
  // Rows refused: the summary as always, and exit status 1 so that a script notices.
  return summary.refused > 0 ? new PartialResult(result, 1) : result;
}

/** A row's decision, its policy version found, or why it cannot be one. The recording side checks it further (ImportSink). */
function itemFor(
  values: Numbered['values'],
  mapping: Mapping,
  policies: PolicyIndex,
): { item: ImportItem; filledBy?: SourceRow['filledBy'] } | { errors: RowError[] } {
  const read = readRow(values, mapping);
  if ('errors' in read) return read;
  const r = read.row;
  // Its time's bounds before its version: a version "in force in 1989" is no fix for a row that cannot be.
  if (r.collectedAt !== undefined && r.collectedAt < COLLECTED_AT_MIN)
    return { errors: [{ field: columnOf(mapping, 'collectedAt'), message: 'must not be before 1990' }] };
  const resolved = policies.resolve(r);
  if ('error' in resolved) {
    const { field, message } = resolved.error;
    // A purpose a list cell names by another platform's id: say how to name it here.
    const hint =
      mapping.decisionOn?.listed && field === 'purpose' && message.startsWith('no purpose ')
        ? `; --purpose-alias ${mapping.decisionOn.purpose}=PURPOSE names it, ${mapping.decisionOn.purpose}=- leaves it out`
        : '';
    return { errors: [{ field: columnOf(mapping, field), message: message + hint }] };
  }
  // A wide file's row holds a decision per purpose under one source id: each is keyed by both.
  const sourceId = r.id === undefined ? undefined : mapping.decisionOn ? `${r.id}\u0000${resolved.policy.purpose}` : r.id;
  return {
    item: {
      item: {
        policyVersionId: resolved.policy.id,
        userReference: r.userReference!,
        consentGiven: r.consentGiven!,
        ipAddress: r.ipAddress,
        userAgent: r.userAgent,
        metadata: r.metadata,
        collectedAt: r.collectedAt!,
        ...(r.withdrawnAt === undefined ? {} : { withdrawnAt: r.withdrawnAt }),
      },
      ...(sourceId === undefined ? {} : { sourceId }),
    },
    ...(r.filledBy ? { filledBy: r.filledBy } : {}),
  };
}

/** The file's rows with their lines and mapping, or a line that is not a row. */
async function* rowsOf(
  text: AsyncIterable<string>,
  input: ImportInput,
  io: CliIo,
): AsyncGenerator<(Numbered & { mapping: Mapping }) | { line: number; error: RowError }> {
  const lines = linesOf(text);
  // --empty: the file's own words for an empty cell (a JSON string holding one is null).
  const words = input.emptyWords;
  const empty = words && ((v: unknown) => typeof v === 'string' && words.has(v.trim().toLowerCase()));
  if (input.format === 'jsonl') {
    const mappings = new Map<string, { mapping: Mapping; clash: string | undefined }>();
    const unmapped = new Set(input.maps.keys());
    // A --map key with a dot that a line lacks names a nested value (`subject.email`: the email of its subject object).
    const paths = [...input.maps.keys()].filter((k) => k.includes('.')).map((k) => [k, k.split('.')] as const);
    let no = 0;
    let first = true;
    for await (const { text } of lines) {
      const line = no === 0 ? text.replace(/^\uFEFF/, '') : text;
      no++;
      if (line.trim() === '') continue;
      // A JSON array (one document, often pretty-printed) is a common mistake for JSON lines:
      // each of its lines would be refused alone, so the file is, naming the fix.
      if (first && line.trimStart().startsWith('[')) {
        throw new UsageError(
          `${input.file} holds a JSON array, not JSON lines (one object per line): convert it first, e.g. jq -c '.[]' file.json > file.jsonl`,
        );
      }
      first = false;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        yield { line: no, error: { field: 'line', message: 'is not JSON' } };
        continue;
      }
      // A key given twice, or an integer past 2^53, would record what the line does not say: refused as a batch item is.
      const hidden = jsonTextProblem(line);
      if (hidden) {
        yield { line: no, error: hidden.field === '(body)' ? { field: 'line', message: hidden.message } : hidden };
        continue;
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        yield { line: no, error: { field: 'line', message: 'is not a JSON object' } };
        continue;
      }
      const entries = Object.entries(value);
      for (const [key, path] of paths) {
        if (Object.hasOwn(value, key)) continue;
        let nested: unknown = value;
        for (const part of path) nested = isObject(nested) && Object.hasOwn(nested, part) ? nested[part] : undefined;
        if (nested !== undefined) entries.push([key, nested]);
      }
      const keys = entries.map(([k]) => k);
      const signature = keys.join('\u0000');
      let read = mappings.get(signature);
      if (!read) {
        const mapping = mappingFor(keys, input).mapping;
        read = { mapping, clash: clashOf(keys, mapping, 'key') };
        if (mappings.size < 1000) mappings.set(signature, read);
        for (const key of keys) unmapped.delete(key);
      }
      // Keys giving the same field refuse the line: which of the two it holds is not for the import to guess.
      if (read.clash) {
        yield { line: no, error: { field: 'line', message: read.clash } };
        continue;
      }
      const { mapping } = read;
      yield { line: no, values: new Map(empty ? entries.map(([k, v]) => [k, empty(v) ? null : v]) : entries), mapping };
      // JSON lines have no header to check a --map against: a key none of the first lines has is
      // likely a typo, said while there is time to stop; it may still come (a sparse key), so the import goes on.
      if (no === MAP_CHECK_LINES && unmapped.size > 0) {
        io.info(
          `--map ${[...unmapped].join(', ')}: none of the first ${MAP_CHECK_LINES.toLocaleString('en')} lines has such a key (a typo?); importing on, Ctrl-C stops`,
        );
      }
    }
    // A key no line had at all is said at the end.
    if (unmapped.size > 0) io.info(`--map ${[...unmapped].join(', ')}: no line of the file has such a key, so nothing was read from it.`);
    return;
  }
  let header: string[] | undefined;
  let mapping: Mapping | undefined;
  const it = lines[Symbol.asyncIterator]();
  // The blank lines before the header (no record; csvRecords skips them), and the header's line.
  const before: Line[] = [];
  let first = await it.next();
  while (!first.done && isBlankLine(first.value.text)) {
    before.push(first.value);
    first = await it.next();
  }
  // No header, so no column gives the fields every row needs: refused as such a file is, before anything is recorded.
  if (first.done) throw new UsageError(`${input.file} is empty: a CSV's first line names its columns, then a row per line`);
  const headerLine = first.value;
  // The delimiter, unless given, is the header line's most frequent of `,` `;` and tab.
  const delimiter =
    input.delimiter ??
    [',', ';', '\t'].map((d) => [d, headerLine.text.split(d).length] as const).reduce((a, b) => (b[1] > a[1] ? b : a))[0];
  const all = (async function* () {
    yield* before;
    yield headerLine;
    for (let n = await it.next(); !n.done; n = await it.next()) yield n.value;
  })();
  for await (const record of csvRecords(all, delimiter)) {
    if ('error' in record) {
      yield { line: record.line, error: { field: 'line', message: record.error } };
      continue;
    }
    if (!header) {
      header = record.fields.map((f, i) => (i === 0 ? f.replace(/^\uFEFF/, '') : f).trim());
      // A --map naming no column of the file is a typo that would refuse every row for a field it left empty.
      const missing = [...input.maps.keys()].filter((column) => !header!.includes(column));
      if (missing.length > 0) {
        throw new UsageError(`--map ${missing.join(', ')}: the file has no such column (its columns: ${header.join(', ')})`);
      }
      const found = mappingFor(header, input);
      mapping = found.mapping;
      const clash = clashOf(header, mapping);
      if (clash) throw new UsageError(`${clash} (its columns: ${header.join(', ')})`);
      const unfilled = unfilledFields(mapping);
      if (unfilled.length > 0) {
        throw new UsageError(
          `no column of the file gives ${unfilled.join(', ')}: name the column with --map COLUMN=FIELD, or give one value for ` +
            `every row with --default FIELD=VALUE (its columns: ${header.join(', ')})`,
        );
      }
      io.info(
        `Reading ${found.mapping.name === 'consent-ledger' ? "this service's export" : 'a generic CSV'}; columns ignored: ${found.ignored.length > 0 ? found.ignored.join(', ') : 'none'}.`,
      );
      continue;
    }
    // A row short of the header's cells has them empty (Excel leaves out trailing empty cells past a
    // sheet's first rows); one with cells past the header is refused unless those cells are empty.
    if (record.fields.length > header.length && record.fields.slice(header.length).some((f) => f.trim() !== '')) {
      yield {
        line: record.line,
        error: { field: 'line', message: `has ${record.fields.length} field(s); the header has ${header.length}` },
      };
      continue;
    }
    const cell = (i: number) => record.fields[i] ?? '';
    const values = new Map(header.map((h, i) => [h, empty?.(cell(i)) ? '' : cell(i)]));
    yield { line: record.line, values, mapping: mapping! };
  }
}

export const importCommand: CommandRun = {
  async run(store, input: ImportInput, io) {
    if (!io.settings) throw new UsageError('import needs the service settings');
    if (io.settings.eventStoreUrl) {
      throw new UsageError('with EVENTSTORE_URL set, import through the running service: POST /api/v1/consent/batch with collectedAt');
    }
    const path = resolve(input.file);
    const size = statSync(path).size;
    if (store.kind !== 'postgres' && (input.threads ?? 1) > 1) {
      throw new UsageError('--threads needs a PostgreSQL server (DATABASE_URL): the embedded store takes one writer');
    }
    await new TenantService(store.db).get(input.tenant); // NOT_FOUND, exit status 1, when there is none
    // Each thread checks, seals, hashes and appends its subjects' rows; this one reads and maps the file. By default
    // only for a file worth the threads' start (about half a second each).
    const threads =
      input.dryRun || store.kind !== 'postgres'
        ? 1
        : (input.threads ?? (size >= THREADS_FROM_BYTES ? Math.min(availableParallelism(), DEFAULT_MAX_THREADS) : 1));
    const settings = io.settings;
    // From here a Ctrl-C is answered with the summary, even before the first row is read.
    return stoppable(io, 'stopping once the rows being recorded are in', async (stopped) => {
      const sinkOptions = { webhooks: input.webhooks };
      const sink = await openImportSink(store, settings, input.tenant, sinkOptions);
      let pool: ImportThreads | undefined;
      try {
        if (threads > 1) pool = await ImportThreads.start(threads, settings, input.tenant, sinkOptions);
        const policies = await PolicyIndex.load(store.db, sink.ledger, input.tenant);
        // A wide file's decision columns name purposes: one the tenant lacks would refuse every row.
        for (const { column, purpose } of decisionColumnsOf(input.maps)) {
          const unknown = policies.unknownPurpose(purpose);
          if (unknown) throw new UsageError(`--map ${column}=consentGiven.${purpose}: ${unknown}`);
        }
        for (const { id, purpose } of input.purposeAliases?.values() ?? []) {
          const unknown = purpose === null ? undefined : policies.unknownPurpose(purpose);
          if (unknown) throw new UsageError(`--purpose-alias ${id}=${purpose}: ${unknown}`);
        }
        const importer: Importer = {
          threads,
          append: (items, expectNew, now) => (pool ?? sink).append(items, expectNew, now),
          check: (items, now) => sink.check(items, now),
        };
        // Each run (not a dry run) is recorded in the tenant's log through the ledger the rows went to.
        const log = new ConfigLog(new CommandHandler(sink.ledger));
        const recordRun = async (run: ImportRun) => {
          const data = { importId: randomUUID(), file: basename(path), fileSha256: await fileSha256(path), ...run };
          const id = await log.record(input.tenant, { type: 'HistoryImported', data: { ...data, at: new Date().toISOString() } });
          // A new import stream always takes its event; null would be a broken ledger.
          if (id === null) throw new Error('the import run was not recorded in the audit trail');
          return { id, importId: data.importId, fileSha256: data.fileSha256 };
        };
        return await importFile(path, size, input, io, policies, importer, stopped, input.dryRun ? undefined : recordRun);
      } finally {
        await pool?.close();
        await sink.close();
      }
    });
  },
};
