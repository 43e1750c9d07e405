import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import cliProgress from 'cli-progress';
import { AuditError, exportLog, verifyExport, verifyProof } from '../transparency/audit.js';
import { NoteError, parseVerifierKey, type Verifier } from '../transparency/note.js';
import { TransparencyStore } from '../transparency/transparency.store.js';
import { isUuid } from '../common/ids.js';
import type { CliIo, Command } from './command.js';
import { UsageError } from './command.js';
import { serviceLedger } from './service-ledger.js';

type Values = Record<string, string | boolean | undefined>;

/** Logs at least this long get a progress bar on stderr. */
const PROGRESS_FROM = 10_000;

const need = (values: Values, name: string): string => {
  const v = values[name];
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required`);
  return v;
};

const verifierOf = (vkey: string): Verifier => {
  try {
    return parseVerifierKey(vkey);
  } catch (error) {
    throw new UsageError(`--key: ${(error as NoteError).message} (GET /.well-known/consent-ledger/keys gives it as vkey)`);
  }
};

const oneFile = (positionals: readonly string[], what: string): string => {
  if (positionals.length !== 1) throw new UsageError(`give one ${what} file`);
  return positionals[0]!;
};

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

export const auditExport: Command = {
  name: 'audit export',
  usage: 'audit export --tenant TENANT_ID --out FILE',
  summary:
    "Write a tenant's whole log (JSON Lines: the newest signed checkpoint, then every leaf); prints {tenantId, file, treeSize, rootHash}",
  options: { tenant: { type: 'string' }, out: { type: 'string' } },
  parse(values) {
    const tenant = need(values, 'tenant');
    if (!isUuid(tenant)) throw new UsageError('--tenant must be a tenant id (a UUID, as `tenant list` shows it)');
    return { tenantId: tenant.toLowerCase(), file: need(values, 'out') };
  },
  async run(store, input: { tenantId: string; file: string }, io) {
    const opened = await serviceLedger(store, io.settings);
    // EventStoreDB: sealed events are read from the ledger through read.event_index (kept by the service).
    const logs = new TransparencyStore(store.db, opened.external ? { ledger: opened.ledger, fence: async () => undefined } : undefined);
    const latest = await logs.latestCheckpoint(input.tenantId);
    if (!latest) {
      await opened.close();
      throw new AuditError(`no signed checkpoint for tenant ${input.tenantId}: it has no events yet, or the service has not sealed them`);
    }
    const out = createWriteStream(input.file);
    const bar = progress(io, 'exporting');
    try {
      const header = await exportLog(
        logs,
        input.tenantId,
        { checkpoint: latest.note, treeSize: latest.treeSize, rootHash: latest.rootHash },
        async (line) => {
          if (!out.write(line)) await once(out, 'drain');
        },
        (n, total) => bar.update(n, total),
      );
      out.end();
      await once(out, 'finish');
      io.info(`Exported ${header.treeSize} events of tenant ${input.tenantId} to ${input.file}.`);
      return {
        tenantId: input.tenantId,
        file: input.file,
        treeSize: header.treeSize,
        rootHash: header.rootHash,
        checkpoint: header.checkpoint,
      };
    } finally {
      bar.stop();
      out.destroy();
      await opened.close();
    }
  },
};

export const auditVerify: Command = {
  name: 'audit verify',
  usage: 'audit verify FILE --key VKEY [--key RETIRED_VKEY…]',
  summary:
    'Offline, no database: check an export (every eventHash, stream chain and event authenticator, the root against the signed checkpoint); prints the figures (events, consents given/rejected/withdrawn per policy), or names the first bad leaf. The first --key signs the checkpoint; more keys (retired ones) may have signed older events',
  options: { key: { type: 'string', multiple: true } },
  positionals: true,
  parse(values, positionals) {
    const keys = (values.key as unknown as string[] | undefined) ?? [];
    if (keys.length === 0) throw new UsageError('--key is required');
    const [verifier, ...moreKeys] = keys.map(verifierOf);
    return { file: oneFile(positionals, 'export'), verifier: verifier!, moreKeys };
  },
  async runOffline(input: { file: string; verifier: Verifier; moreKeys: Verifier[] }, io) {
    const lines = createInterface({ input: createReadStream(input.file), crlfDelay: Infinity });
    const bar = progress(io, 'verifying');
    try {
      const report = await verifyExport(lines, input.verifier, (n, total) => bar.update(n, total), { moreKeys: input.moreKeys });
      bar.stop();
      io.info(`Verified: ${report.events} events, the root matches the checkpoint signed by ${input.verifier.name}.`);
      return report;
    } finally {
      bar.stop();
      lines.close();
    }
  },
};

export const auditProve: Command = {
  name: 'audit prove',
  usage: 'audit prove PROOF_FILE --key VKEY',
  summary:
    "Offline: check one record's proof (GET /consent/:id/proof saved to a file) against the signed checkpoint; prints {valid, consentId, leafIndex, treeSize, rootHash}",
  options: { key: { type: 'string' } },
  positionals: true,
  parse(values, positionals) {
    return { file: oneFile(positionals, 'proof'), verifier: verifierOf(need(values, 'key')) };
  },
  async runOffline(input: { file: string; verifier: Verifier }) {
    let proof: unknown;
    try {
      proof = JSON.parse(readFileSync(input.file, 'utf8'));
    } catch (error) {
      throw new AuditError(`cannot read the proof: ${(error as Error).message}`);
    }
    return verifyProof(proof, input.verifier);
  },
};
