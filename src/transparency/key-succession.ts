/**
 * Which signing keys the log's history may name: the key this process holds, and each retired key
 * whose successor, itself vouched for, signed a statement naming it (written by `keys
 * rotate-signing`). A row the database's credentials alone put into `transparency.key_history`
 * carries no such signature, so the authenticators its key makes are refused (docs/verifying.md).
 * The statement also names the ledger position the rotation found the ledger at: the retired key
 * authenticates no event appended after it.
 */

import { verify } from 'node:crypto';
import type { LedgerPosition } from '../ledger/ledger.port.js';
import { ed25519PublicKey, type NoteSigner } from './note.js';

/** A ledger position as the statement and the history write it: `<commit>.<prepare>`. */
export const positionText = (p: LedgerPosition): string => `${p.commit}.${p.prepare}`;

function parsePosition(text: string): LedgerPosition | null {
  const m = /^(-?[0-9]{1,16})\.(-?[0-9]{1,16})$/.exec(text);
  return m ? { commit: Number(m[1]), prepare: Number(m[2]) } : null;
}

/**
 * What a successor signs (and the retired key, for its handover): the key it succeeds, itself
 * (base64 of the raw Ed25519 keys), and since v2 the last ledger position the retired key
 * authenticates. Keys retired before v2 carry a v1 statement, with no position.
 */
const statement = (retired: string, successor: string, until: string | null): Buffer =>
  Buffer.from(
    until === null
      ? `consent-ledger/key-succession/v1\n${retired}\n${successor}\n`
      : `consent-ledger/key-succession/v2\n${retired}\n${successor}\n${until}\n`,
    'utf8',
  );

/**
 * The successor's signature naming `retired` (base64), as stored beside the retired key; with the
 * retiring key itself (a rotation holds both), also its handover: the same statement signed by the
 * retired key, which lets an auditor who kept only the old key trust the new one. `until`: the
 * last ledger position the retired key authenticates (a rotation's; none for keys vouched for
 * after an older version retired them).
 */
export function signSuccession(
  retired: Buffer,
  successor: NoteSigner,
  retiring?: NoteSigner,
  until?: LedgerPosition,
): { successor_key: string; successor_signature: string; handover_signature?: string; retired_position?: string } {
  const successorKey = successor.publicKey.toString('base64');
  const position = until === undefined ? null : positionText(until);
  const text = statement(retired.toString('base64'), successorKey, position).toString('utf8');
  return {
    successor_key: successorKey,
    successor_signature: successor.sign(text).toString('base64'),
    ...(retiring ? { handover_signature: retiring.sign(text).toString('base64') } : {}),
    ...(position === null ? {} : { retired_position: position }),
  };
}

/** Whether `signer` (base64 public key, one of the two) signed the statement that `successor` succeeds `retired`. */
function verifies(retired: string, successor: string, until: string | null, signature: string, signer = successor): boolean {
  try {
    return verify(
      null,
      statement(retired, successor, until),
      ed25519PublicKey(Buffer.from(signer, 'base64')),
      Buffer.from(signature, 'base64'),
    );
  } catch {
    return false;
  }
}

/**
 * Whether the retired key handed over to `successor`: the handover, its signature of the
 * succession statement (with `until`, the position it names, when it names one), verifies under
 * the retired key (keys and signature in base64).
 */
export const handedOver = (retired: string, successor: string, until: string | null, handover: string): boolean =>
  verifies(retired, successor, until, handover, retired);

export interface HistoryRow {
  public_key: string;
  successor_key: string | null;
  successor_signature: string | null;
  retired_position?: string | null;
}

/**
 * The public keys (base64) vouched for from `anchor` (the key this process signs with): it, and
 * each key a vouched-for successor signed for, however many rotations back; each with the last
 * ledger position it authenticates (null: any, the anchor's and keys retired before v2).
 *
 * @example
 * vouchedKeys(rows, signer.publicKey.toString('base64')).has(row.public_key)
 */
export function vouchedKeys(rows: readonly HistoryRow[], anchor: string): Map<string, LedgerPosition | null> {
  const vouched = new Map<string, LedgerPosition | null>([[anchor, null]]);
  for (let grew = true; grew;) {
    grew = false;
    for (const r of rows) {
      if (vouched.has(r.public_key) || !r.successor_key || !r.successor_signature || !vouched.has(r.successor_key)) continue;
      const until = r.retired_position ?? null;
      const bound = until === null ? null : parsePosition(until);
      if (until !== null && bound === null) continue;
      if (!verifies(r.public_key, r.successor_key, until, r.successor_signature)) continue;
      vouched.set(r.public_key, bound);
      grew = true;
    }
  }
  return vouched;
}
