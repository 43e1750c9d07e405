import { NoteError, parseVerifierKey } from '../transparency/note.js';
import { UsageError, type Command, type Values } from './command.js';

const listenAddress = (raw: string): { host: string; port: number } => {
  const m = /^(?:\[([0-9a-fA-F:]+)\]|([^:]+)):([0-9]{1,5})$/.exec(raw);
  if (!m || Number(m[3]) > 65535) throw new UsageError('--listen reads HOST:PORT (for example 127.0.0.1:7380)');
  return { host: m[1] ?? m[2]!, port: Number(m[3]) };
};

/**
 * `witness`: runs a witness (c2sp.org/tlog-witness) until SIGINT or SIGTERM. It prints one JSON
 * object when it listens ({name, vkey, url}); the vkey is what a log's WITNESSES and an auditor's
 * --witness take.
 */
export const witnessServe: Command = {
  name: 'witness',
  usage: 'witness --listen HOST:PORT --state DIR --log VKEY [--log VKEY…] [--name NAME]',
  summary:
    "Run a witness (c2sp.org/tlog-witness): cosigns a log's checkpoints signed by a --log key only when consistent with what it cosigned before, refusing a rollback or a fork; prints {name, vkey, url} and serves until stopped",
  options: { listen: { type: 'string' }, state: { type: 'string' }, log: { type: 'string', multiple: true }, name: { type: 'string' } },
  parse(values: Values) {
    const listen = values.listen;
    const state = values.state;
    if (typeof listen !== 'string') throw new UsageError('--listen HOST:PORT is required');
    if (typeof state !== 'string' || state === '')
      throw new UsageError('--state DIR is required (the witness keeps its key and what it cosigned there)');
    const logVkeys = (values.log as unknown as string[] | undefined) ?? [];
    if (logVkeys.length === 0) throw new UsageError("--log is required: the log's vkey (GET /.well-known/consent-ledger/keys)");
    const logs = logVkeys.map((v) => {
      try {
        return parseVerifierKey(v);
      } catch (error) {
        throw new UsageError(`--log ${v}: ${(error as NoteError).message}`);
      }
    });
    return { ...listenAddress(listen), state, logs, logVkeys, name: typeof values.name === 'string' ? values.name : undefined };
  },
  load: () => import('./witness.run.js').then((m) => m.witnessServe),
};
