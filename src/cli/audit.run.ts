// What the commands defined in audit.commands.ts do once their arguments are parsed: imported by their
// `load` only when one runs, with the store and everything they use (src/cli/README.md).
import { createReadStream, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileDurably, writeStreamWhole } from '../common/key-file.js';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import cliProgress from 'cli-progress';
import {
  AuditError,
  checkConsistency,
  checkOrder,
  exportLog,
  checkReceipt,
  followHandovers,
  LeafChecker,
  openCheckpoint,
  openKeptCheckpoint,
  verifyEventProof,
  requireQuorum,
  signerAfter,
  tenantOfOrigin,
  verifyExport,
  verifyProof,
  type Handover,
  type LeafCheckerState,
  type PublishedKey,
} from '../transparency/audit.js';
import { LogClient } from '../transparency/log-client.js';
import { parseVerifierKey, type Checkpoint, type Verifier } from '../transparency/note.js';
import { TransparencyStore } from '../transparency/transparency.store.js';
import type { CliIo, CommandRun } from './command.js';
import { serviceLedger } from './service-ledger.js';
import { TenantService } from '../tenants/tenants.service.js';
import { Stopped, stoppable, stoppedAnswer, throwIfStopped } from './stoppable.js';

/** Logs at least this long get a progress bar on stderr. */
const PROGRESS_FROM = 10_000;

/**
 * A note as saved by hand: one final newline (`jq -r` and editors add another, a shell's `$(…)`
 * drops it) and LF line ends. The signature decides whether what remains is the note signed.
 */
const asSaved = (note: string): string => `${note.replaceAll('\r\n', '\n').replace(/\n+$/, '')}\n`;

/**
 * A checkpoint from a file: the signed note itself, or JSON holding it as `checkpoint` (an
 * export's header line, a proof, or the answer of GET …/checkpoint with its `data`).
 */
function readCheckpointFile(path: string): string {
  // The note itself, given as the argument rather than as a file.
  if (path.includes('\n') && !existsSync(path)) return asSaved(path);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new AuditError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  if (!text.trimStart().startsWith('{')) return asSaved(text);
  const firstLine = text.split('\n', 1)[0]!;
  for (const candidate of [text, firstLine]) {
    try {
      const o = JSON.parse(candidate) as { checkpoint?: unknown; data?: { checkpoint?: unknown } };
      const note = o.data?.checkpoint ?? o.checkpoint;
      if (typeof note === 'string') return note;
    } catch {
      // the next form
    }
  }
  throw new AuditError(`${path} holds no checkpoint: give the signed note, or JSON with a checkpoint field`);
}

function progress(io: CliIo, label: string) {
  const bar = new cliProgress.SingleBar(
    {
      stream: io.progressStream,
      format: `${label} [{bar}] {percentage}% | {value}/{total} events | {duration_formatted}`,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(done: number, total: number) {
      if (total < PROGRESS_FROM) return;
      if (!started) {
        started = true;
        bar.start(total, done);
      } else bar.update(done);
    },
    stop: () => bar.stop(),
  };
}

interface MonitorState {
  /** The keys trusted since the first --key by their predecessors' handovers, in order. */
  handovers?: Handover[];
  origin: string;
  checkpoint: string;
  treeSize: number;
  rootHash: string;
  checkedAt: string;
  leaves: LeafCheckerState;
}

interface MonitorInput {
  url: string;
  tenantId: string;
  keys: Verifier[];
  state: string;
  once: boolean;
  intervalMs: number;
  witnessing?: { witnesses: Verifier[]; quorum: number };
}

/** One pass of the monitor: the newest checkpoint, every leaf since the last pass, and the root. */
async function monitorPass(input: MonitorInput, io: CliIo): Promise<object> {
  const client = new LogClient(input.url, input.tenantId);
  const file = join(input.state, `${input.tenantId}.json`);
  const saved = readJsonState<MonitorState | null>(file, null);
  const handovers = [...(saved?.handovers ?? [])];
  const keys = [...input.keys, ...handovers.map((h) => parseVerifierKey(h.to))];
  const note = await client.checkpoint();
  let next: ReturnType<typeof openCheckpoint>;
  let learned: Handover[] = [];
  try {
    // Signed by the first --key, or by the key its handovers kept in the state lead to.
    next = openCheckpoint(note, signerAfter(input.keys[0]!, handovers));
  } catch (error) {
    // A rotation since: the log's keys document names the successor, and the retired key's own
    // signature (its handover) is what makes it trusted.
    let published: PublishedKey[];
    try {
      published = await client.keys();
    } catch (unread) {
      throw new AuditError(
        `${(error as Error).message} (the keys document could not be read for a handover: ${(unread as Error).message})`,
      );
    }
    const found = followHandovers(published, keys);
    if (found.handovers.length === 0) throw error;
    handovers.push(...found.handovers);
    keys.push(...found.keys);
    next = openCheckpoint(note, signerAfter(input.keys[0]!, handovers));
    learned = found.handovers;
    for (const h of learned)
      io.info(`the log's key ${h.from} handed over to ${h.to} (signed by the key it retires): trusted from now on, kept in ${file}`);
  }
  if (tenantOfOrigin(next.origin) !== input.tenantId) throw new AuditError(`the checkpoint is of another log: ${next.origin}`);
  const cosigners = input.witnessing ? requireQuorum(note, input.witnessing.witnesses, input.witnessing.quorum) : undefined;
  // The state's checkpoint may be a retired key's (signed before a rotation): any key trusted opens it.
  if (saved) checkOrder(openKeptCheckpoint(saved.checkpoint, keys), next);
  const checker = new LeafChecker(input.tenantId, keys, saved?.leaves);
  const from = checker.size;
  while (checker.size < next.treeSize) {
    const page = await client.events(checker.size - 1, 1000);
    if (page.length === 0)
      throw new AuditError(`the feed ends at leaf ${checker.size}; the checkpoint signs ${next.treeSize}`, checker.size);
    for (const entry of page) {
      if (checker.size >= next.treeSize) break;
      checker.add(entry);
    }
    if (next.treeSize - from >= 10_000) io.info(`checked ${checker.size - from} of ${next.treeSize - from} new leaves`);
  }
  if (!checker.root().equals(next.rootHash)) {
    throw new AuditError(
      saved
        ? `the ${next.treeSize - from} leaves after leaf ${from - 1} do not lead from the root checked before to the signed root of ${next.treeSize}: the history was rewritten or the feed does not match the log`
        : `the leaves of the feed do not make the signed root of ${next.treeSize}`,
      undefined,
      'INCONSISTENT',
    );
  }
  const checkedAt = new Date().toISOString();
  writeJsonState(file, {
    ...(handovers.length > 0 ? { handovers } : {}),
    origin: next.origin,
    checkpoint: note,
    treeSize: next.treeSize,
    rootHash: next.rootHash.toString('hex'),
    checkedAt,
    leaves: checker.save(),
  } satisfies MonitorState);
  return {
    valid: true,
    tenantId: input.tenantId,
    origin: next.origin,
    treeSize: next.treeSize,
    rootHash: next.rootHash.toString('hex'),
    signedAt: next.signedAt,
    newLeaves: next.treeSize - from,
    authenticated: checker.authenticated,
    ...(cosigners ? { cosignedBy: cosigners } : {}),
    ...(learned.length > 0 ? { handedOver: learned } : {}),
    checkedAt,
  };
}

interface ProveState {
  /** Per log origin: the newest checkpoint verified. */
  logs: Record<string, { checkpoint: string; treeSize: number; rootHash: string }>;
}

const readJsonState = <T>(path: string, empty: T): T => {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return empty;
    throw new AuditError(`cannot read the state ${path}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new AuditError(`the state ${path} is not JSON: restore it from a copy, or start over from a checkpoint you trust`);
  }
};

/** Writes a state file whole and durably (it holds no secret: the usual mode). */
const writeJsonState = (path: string, state: object): void => writeFileDurably(path, `${JSON.stringify(state, null, 2)}\n`, 0o666);

/**
 * Checks `next` against the checkpoint kept before: no rollback, no fork, and (sizes differing) an
 * RFC 9162 consistency proof from the service at `url`, read through its public routes.
 */
async function consistentWithKept(kept: Checkpoint, next: Checkpoint, url: string | undefined): Promise<void> {
  const fetchProof = async (from: Checkpoint, to: Checkpoint) =>
    checkConsistency(from, to, await LogClient.forOrigin(next.origin, url).consistency(from.treeSize, to.treeSize));
  if (next.treeSize >= kept.treeSize || next.origin !== kept.origin) {
    if (checkOrder(kept, next)) await fetchProof(kept, next);
  } else if (next.treeSize > 0) {
    // A proof older than the checkpoint kept (a receipt from last year): it must be a prefix of it.
    await fetchProof(next, kept);
  }
}

export const auditExport: CommandRun = {
  // The file is whole or not there: written beside under a temporary name, renamed once complete;
  // a failure or Ctrl-C removes the part and leaves an earlier export of the same name as it was.
  run: (store, input: { tenantId: string; file: string }, io) =>
    stoppable(io, 'stopping; the file is not written', async (stopped) => {
      const opened = await serviceLedger(store, io.settings);
      // EventStoreDB: sealed events are read from the ledger through read.event_index (kept by the service).
      const logs = new TransparencyStore(store.db, opened.external ? { ledger: opened.ledger, fence: async () => undefined } : undefined);
      const latest = await logs.latestCheckpoint(input.tenantId);
      if (!latest) {
        await opened.close();
        // A tenant id mistyped is said as such (NOT_FOUND), not as a log not sealed yet.
        await new TenantService(store.db).get(input.tenantId);
        throw new AuditError(`no signed checkpoint for tenant ${input.tenantId}: it has no events yet, or the service has not sealed them`);
      }
      const bar = progress(io, 'exporting');
      try {
        const header = await writeStreamWhole(
          input.file,
          async (out) => {
            const written = await exportLog(
              logs,
              input.tenantId,
              { checkpoint: latest.note, treeSize: latest.treeSize, rootHash: latest.rootHash },
              async (line) => {
                throwIfStopped(stopped);
                if (!out.write(line)) {
                  if (out.errored) throw out.errored;
                  await once(out, 'drain');
                }
              },
              (n, total) => bar.update(n, total),
            );
            out.end();
            return written;
          },
          0o666,
        );
        io.info(`Exported ${header.treeSize} events of tenant ${input.tenantId} to ${input.file}.`);
        return {
          tenantId: input.tenantId,
          file: input.file,
          treeSize: header.treeSize,
          rootHash: header.rootHash,
          checkpoint: header.checkpoint,
        };
      } catch (error) {
        if (!(error instanceof Stopped)) throw error;
        bar.stop();
        const message = `Stopped by ${error.signal}: ${input.file} was not written.`;
        return stoppedAnswer(io, error.signal, message, { tenantId: input.tenantId, file: input.file, written: false });
      } finally {
        bar.stop();
        await opened.close();
      }
    }),
};

export const auditVerify: CommandRun = {
  async runOffline(
    input: {
      file: string;
      verifier: Verifier;
      moreKeys: Verifier[];
      since?: string;
      witnessing?: { witnesses: Verifier[]; quorum: number };
    },
    io,
  ) {
    const since =
      input.since === undefined ? undefined : openKeptCheckpoint(readCheckpointFile(input.since), [input.verifier, ...input.moreKeys]);
    const lines = createInterface({ input: createReadStream(input.file), crlfDelay: Infinity });
    const bar = progress(io, 'verifying');
    try {
      const report = await verifyExport(lines, input.verifier, (n, total) => bar.update(n, total), {
        moreKeys: input.moreKeys,
        ...(since ? { since } : {}),
        ...(input.witnessing ?? {}),
      });
      bar.stop();
      io.info(`Verified: ${report.events} events, the root matches the checkpoint signed by ${input.verifier.name}.`);
      return report;
    } finally {
      bar.stop();
      lines.close();
    }
  },
};

export const auditProve: CommandRun = {
  async runOffline(input: {
    file: string;
    verifier: Verifier;
    moreKeys: Verifier[];
    state?: string;
    url?: string;
    witnessing?: { witnesses: Verifier[]; quorum: number };
  }) {
    let proof: unknown;
    try {
      proof = JSON.parse(readFileSync(input.file, 'utf8'));
    } catch (error) {
      throw new AuditError(`cannot read the proof: ${(error as Error).message}`);
    }
    // A proof, and the state, kept from before a key rotation are opened by whichever key signed them.
    const keys = [input.verifier, ...input.moreKeys];
    const report = verifyProof(proof, keys, input.witnessing);
    if (!input.state) return report;
    const state = readJsonState<ProveState>(input.state, { logs: {} });
    const note = (proof as { data?: { checkpoint?: string } }).data?.checkpoint ?? (proof as { checkpoint: string }).checkpoint;
    const next = openKeptCheckpoint(note, keys);
    const kept = state.logs[next.origin];
    if (kept) await consistentWithKept(openKeptCheckpoint(kept.checkpoint, keys), next, input.url);
    if (!kept || next.treeSize > kept.treeSize) {
      state.logs[next.origin] = { checkpoint: note, treeSize: next.treeSize, rootHash: next.rootHash.toString('hex') };
      writeJsonState(input.state, state);
    }
    return { ...report, state: { file: input.state, treeSize: Math.max(next.treeSize, kept?.treeSize ?? 0) } };
  },
};

export const auditConsistency: CommandRun = {
  async runOffline(input: { old: string; next?: string; url?: string; verifier: Verifier; moreKeys: Verifier[] }) {
    // The first key signs the newest checkpoint; the one kept may be a retired key's.
    const old = openKeptCheckpoint(readCheckpointFile(input.old), [input.verifier, ...input.moreKeys]);
    const log = LogClient.forOrigin(old.origin, input.url);
    const note = input.next ? readCheckpointFile(input.next) : await log.checkpoint();
    const next = openCheckpoint(note, input.verifier);
    if (checkOrder(old, next)) checkConsistency(old, next, await log.consistency(old.treeSize, next.treeSize));
    return {
      consistent: true,
      origin: old.origin,
      from: { treeSize: old.treeSize, rootHash: old.rootHash.toString('hex'), signedAt: old.signedAt },
      to: { treeSize: next.treeSize, rootHash: next.rootHash.toString('hex'), signedAt: next.signedAt },
      ...(input.next ? {} : { checkpoint: note }),
    };
  },
};

export const auditMonitor: CommandRun = {
  async runOffline(input: MonitorInput, io) {
    mkdirSync(input.state, { recursive: true });
    if (input.once) return monitorPass(input, io);
    let stopped = false;
    let wake: () => void = () => undefined;
    const stop = () => {
      stopped = true;
      wake();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    while (!stopped) {
      try {
        io.emit?.(await monitorPass(input, io));
      } catch (error) {
        // An outage checks nothing and finds nothing: said, and tried again next interval.
        if (!(error instanceof AuditError && error.code === 'UNREACHABLE')) throw error;
        io.info(`consent-ledger: ${error.message}; trying again in ${input.intervalMs / 1000} s`);
        io.emit?.({
          checked: false,
          tenantId: input.tenantId,
          error: { code: error.code, message: error.message },
          at: new Date().toISOString(),
        });
      }
      // The timer keeps the process alive between passes; a signal clears it and ends the loop.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, input.intervalMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
        if (stopped) wake();
      });
    }
    return null;
  },
};

export const auditReceipt: CommandRun = {
  async runOffline(input: {
    file: string;
    verifier: Verifier;
    moreKeys: Verifier[];
    url?: string;
    witnessing?: { witnesses: Verifier[]; quorum: number };
  }) {
    let pdf: Buffer;
    try {
      pdf = readFileSync(input.file);
    } catch (error) {
      throw new AuditError(`cannot read ${input.file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    // The checkpoint printed on the receipt may be a retired key's; today's must be the first key's.
    const receipt = checkReceipt(pdf, [input.verifier, ...input.moreKeys], input.witnessing);
    const record = {
      leafIndex: receipt.record.leafIndex,
      treeSize: receipt.record.treeSize,
      rootHash: receipt.record.rootHash,
      signedAt: receipt.record.signedAt,
      ...(receipt.record.cosignedBy ? { cosignedBy: receipt.record.cosignedBy } : {}),
    };
    const report = {
      valid: true,
      receiptId: receipt.receiptId,
      consentId: receipt.consentId,
      consentHash: receipt.consentHash,
      sha256: receipt.sha256,
      record,
    };
    if (!input.url) return report;
    const client = new LogClient(input.url, receipt.tenantId);
    const issue = verifyEventProof(await client.receiptIssue(receipt.consentId, receipt.receiptId), [input.verifier]);
    const data = issue.event.data as Record<string, unknown>;
    if (issue.event.type !== 'ReceiptIssued' || data.receiptId !== receipt.receiptId || data.consentId !== receipt.consentId) {
      throw new AuditError("the log answered an event that is not this receipt's issue");
    }
    if (data.sha256 !== receipt.sha256) {
      throw new AuditError(
        `the PDF's SHA-256 (${receipt.sha256}) is not the one its ReceiptIssued event records (${String(data.sha256)}): the PDF was changed after it was issued`,
      );
    }
    // Today's log must extend the checkpoint printed on the receipt.
    const printed = receipt.record.signed;
    const latest = openCheckpoint(await client.checkpoint(), input.verifier);
    if (checkOrder(printed, latest)) checkConsistency(printed, latest, await client.consistency(printed.treeSize, latest.treeSize));
    return {
      ...report,
      issued: { leafIndex: issue.leafIndex, treeSize: issue.treeSize, issuedAt: data.issuedAt ?? null, sha256: data.sha256 },
      consistentWith: { treeSize: latest.treeSize, rootHash: latest.rootHash.toString('hex'), signedAt: latest.signedAt },
    };
  },
};
