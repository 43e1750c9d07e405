import { NoteError, parseVerifierKey, type Verifier } from '../transparency/note.js';
import { isUuid } from '../common/ids.js';
import { UsageError, type Command, type Values } from './command.js';

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

const keysOf = (values: Values): Verifier[] => {
  const keys = (values.key as unknown as string[] | undefined) ?? [];
  if (keys.length === 0) throw new UsageError('--key is required');
  return keys.map(verifierOf);
};

/** --witness VKEY… and --quorum N (default: every witness given). */
function witnessesOf(values: Values): { witnesses: Verifier[]; quorum: number } | undefined {
  const raw = (values.witness as unknown as string[] | undefined) ?? [];
  if (raw.length === 0) {
    if (values.quorum !== undefined) throw new UsageError('--quorum needs --witness');
    return undefined;
  }
  const witnesses = raw.map((v) => {
    let w: Verifier;
    try {
      w = parseVerifierKey(v);
    } catch (error) {
      throw new UsageError(`--witness: ${(error as NoteError).message}`);
    }
    if (w.type !== 0x04)
      throw new UsageError(`--witness ${v}: a log's key; give the witness's cosignature vkey (type 0x04, as the witness prints it)`);
    return w;
  });
  const q = values.quorum === undefined ? witnesses.length : Number(values.quorum);
  if (!Number.isInteger(q) || q < 1 || q > witnesses.length)
    throw new UsageError(`--quorum must be from 1 to the ${witnesses.length} witnesses given`);
  return { witnesses, quorum: q };
}

const WITNESS_OPTIONS = { witness: { type: 'string', multiple: true }, quorum: { type: 'string' } } as const;

/** A base URL (--url): http(s) only. */
const baseUrl = (raw: string): string => {
  if (!/^https?:\/\/[^\s]+$/.test(raw)) throw new UsageError("--url is the service's base URL, http(s)://host[:port]");
  return raw.replace(/\/+$/, '');
};

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
  load: () => import('./audit.run.js').then((m) => m.auditExport),
};

export const auditVerify: Command = {
  name: 'audit verify',
  usage: 'audit verify FILE --key VKEY [--key RETIRED_VKEY…] [--since CHECKPOINT_FILE] [--witness VKEY… [--quorum N]]',
  summary:
    'Offline, no database: check an export (every eventHash, stream chain, event authenticator and time order, the root against the signed checkpoint); prints the figures (events, consents given/rejected/withdrawn per policy), or names the first bad leaf. The first --key signs the checkpoint; more keys (retired ones) may have signed older events. --since: the log must extend a checkpoint kept before (else ROLLBACK or INCONSISTENT); --witness/--quorum: that many of these witnesses must have cosigned it',
  options: { key: { type: 'string', multiple: true }, since: { type: 'string' }, ...WITNESS_OPTIONS },
  positionals: true,
  parse(values, positionals) {
    const [verifier, ...moreKeys] = keysOf(values);
    return {
      file: oneFile(positionals, 'export'),
      verifier: verifier!,
      moreKeys,
      since: typeof values.since === 'string' ? values.since : undefined,
      witnessing: witnessesOf(values),
    };
  },
  load: () => import('./audit.run.js').then((m) => m.auditVerify),
};

export const auditProve: Command = {
  name: 'audit prove',
  usage: 'audit prove PROOF_FILE --key VKEY [--key RETIRED_VKEY…] [--state FILE [--url BASE]] [--witness VKEY… [--quorum N]]',
  summary:
    "Offline: check one record's proof (GET /consent/:id/proof saved to a file) against the signed checkpoint, signed by any --key given (a proof kept from before a key rotation: give the retired key too); prints {valid, consentId, leafIndex, treeSize, rootHash, signedAt}. --state keeps the newest checkpoint verified and refuses one that is not consistent with it (ROLLBACK, INCONSISTENT; the consistency proof is read from --url, by default the checkpoint's origin host); --witness/--quorum: that many of these witnesses must have cosigned it",
  options: { key: { type: 'string', multiple: true }, state: { type: 'string' }, url: { type: 'string' }, ...WITNESS_OPTIONS },
  positionals: true,
  parse(values, positionals) {
    if (values.url !== undefined && values.state === undefined) throw new UsageError('--url goes with --state');
    const [verifier, ...moreKeys] = keysOf(values);
    return {
      file: oneFile(positionals, 'proof'),
      verifier: verifier!,
      moreKeys,
      state: typeof values.state === 'string' ? values.state : undefined,
      url: typeof values.url === 'string' ? baseUrl(values.url) : undefined,
      witnessing: witnessesOf(values),
    };
  },
  load: () => import('./audit.run.js').then((m) => m.auditProve),
};

export const auditConsistency: Command = {
  name: 'audit consistency',
  usage: 'audit consistency --old CHECKPOINT [--new CHECKPOINT] [--url BASE] --key VKEY [--key RETIRED_VKEY…]',
  summary:
    "Check that a log only grew between a checkpoint kept before (--old) and a newer one (--new, or else the log's newest): both signed by --key (the first key signs the newer one; the old one may be signed by a key retired since, given as another --key), and an RFC 9162 consistency proof between them, read from the log at --url (default: its origin's host, https then http). A CHECKPOINT is a file (the note, or JSON holding it) or the note itself. Prints {consistent, origin, from, to}; a log that shrank answers ROLLBACK, one whose history changed INCONSISTENT",
  options: { old: { type: 'string' }, new: { type: 'string' }, url: { type: 'string' }, key: { type: 'string', multiple: true } },
  parse(values) {
    const [verifier, ...moreKeys] = keysOf(values);
    return {
      old: need(values, 'old'),
      next: typeof values.new === 'string' ? values.new : undefined,
      url: typeof values.url === 'string' ? baseUrl(values.url) : undefined,
      verifier: verifier!,
      moreKeys,
    };
  },
  load: () => import('./audit.run.js').then((m) => m.auditConsistency),
};

export const auditMonitor: Command = {
  name: 'audit monitor',
  usage:
    'audit monitor --url BASE --tenant ID --key VKEY [--key RETIRED_VKEY…] --state DIR [--once] [--interval SECONDS] [--witness VKEY… [--quorum N]]',
  summary:
    "Follow a tenant's log through the public feed: every new leaf (hash, chain, authenticator, time order), the signed root, and consistency with the state kept in DIR (ROLLBACK, INCONSISTENT). --once checks and exits (for cron); otherwise checks every --interval seconds (60) until a check fails, which exits 1 with a plain report. After a signing-key rotation it trusts the new key by the retired key's own signed handover in the keys document, and keeps it in DIR",
  options: {
    url: { type: 'string' },
    tenant: { type: 'string' },
    key: { type: 'string', multiple: true },
    state: { type: 'string' },
    once: { type: 'boolean' },
    interval: { type: 'string' },
    ...WITNESS_OPTIONS,
  },
  parse(values) {
    const tenant = need(values, 'tenant');
    if (!isUuid(tenant)) throw new UsageError('--tenant must be a tenant id (a UUID)');
    const interval = values.interval === undefined ? 60 : Number(values.interval);
    if (!(interval >= 1 && interval <= 86_400)) throw new UsageError('--interval is 1 to 86400 seconds');
    return {
      url: baseUrl(need(values, 'url')),
      tenantId: tenant.toLowerCase(),
      keys: keysOf(values),
      state: need(values, 'state'),
      once: values.once === true,
      intervalMs: interval * 1000,
      witnessing: witnessesOf(values),
    };
  },
  load: () => import('./audit.run.js').then((m) => m.auditMonitor),
};

export const auditReceipt: Command = {
  name: 'audit receipt',
  usage: 'audit receipt FILE.pdf --key VKEY [--key RETIRED_VKEY…] [--url BASE] [--witness VKEY… [--quorum N]]',
  summary:
    "Check a PDF receipt: the proof it carries (its record's ledger event, consentHash and inclusion in the signed checkpoint printed on it, signed by any --key given: a receipt from before a key rotation needs the retired key too), offline; a receipt that carries no proof fails. With --url, also that the PDF's SHA-256 is the one its ReceiptIssued event records, that event's inclusion, and that today's log, signed by the first --key, is consistent with the receipt's checkpoint",
  options: { key: { type: 'string', multiple: true }, url: { type: 'string' }, ...WITNESS_OPTIONS },
  positionals: true,
  parse(values, positionals) {
    const [verifier, ...moreKeys] = keysOf(values);
    return {
      file: oneFile(positionals, 'receipt PDF'),
      verifier: verifier!,
      moreKeys,
      url: typeof values.url === 'string' ? baseUrl(values.url) : undefined,
      witnessing: witnessesOf(values),
    };
  },
  load: () => import('./audit.run.js').then((m) => m.auditReceipt),
};
