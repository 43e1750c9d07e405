/**
 * Which signing keys the log's history may name: the key this process holds, and each retired key
 * whose successor, itself vouched for, signed a statement naming it (written by `keys
 * rotate-signing`). A row the database's credentials alone put into `transparency.key_history`
 * carries no such signature, so the authenticators its key makes are refused (docs/verifying.md).
 */

import { verify } from 'node:crypto';
import { ed25519PublicKey, type NoteSigner } from './note.js';

/** What a successor signs: the key it succeeds, and itself (base64 of the raw Ed25519 keys). */
const statement = (retired: string, successor: string): Buffer =>
  Buffer.from(`consent-ledger/key-succession/v1\n${retired}\n${successor}\n`, 'utf8');

/**
 * The successor's signature naming `retired` (base64), as stored beside the retired key; with the
 * retiring key itself (a rotation holds both), also its handover: the same statement signed by the
 * retired key, which lets an auditor who kept only the old key trust the new one.
 */
export function signSuccession(
  retired: Buffer,
  successor: NoteSigner,
  retiring?: NoteSigner,
): { successor_key: string; successor_signature: string; handover_signature?: string } {
  const successorKey = successor.publicKey.toString('base64');
  const text = statement(retired.toString('base64'), successorKey).toString('utf8');
  return {
    successor_key: successorKey,
    successor_signature: successor.sign(text).toString('base64'),
    ...(retiring ? { handover_signature: retiring.sign(text).toString('base64') } : {}),
  };
}

/** Whether `signer` (base64 public key, one of the two) signed the statement that `successor` succeeds `retired`. */
function verifies(retired: string, successor: string, signature: string, signer = successor): boolean {
  try {
    return verify(null, statement(retired, successor), ed25519PublicKey(Buffer.from(signer, 'base64')), Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

/**
 * Whether the retired key handed over to `successor`: the handover, its signature of the
 * succession statement, verifies under the retired key (keys and signature in base64).
 */
export const handedOver = (retired: string, successor: string, handover: string): boolean =>
  verifies(retired, successor, handover, retired);

export interface HistoryRow {
  public_key: string;
  successor_key: string | null;
  successor_signature: string | null;
}

/**
 * The public keys (base64) vouched for from `anchor` (the key this process signs with): it, and
 * each key a vouched-for successor signed for, however many rotations back.
 *
 * @example
 * vouchedKeys(rows, signer.publicKey.toString('base64')).has(row.public_key)
 */
export function vouchedKeys(rows: readonly HistoryRow[], anchor: string): Set<string> {
  const vouched = new Set([anchor]);
  for (let grew = true; grew;) {
    grew = false;
    for (const r of rows) {
      if (vouched.has(r.public_key) || !r.successor_key || !r.successor_signature || !vouched.has(r.successor_key)) continue;
      if (!verifies(r.public_key, r.successor_key, r.successor_signature)) continue;
      vouched.add(r.public_key);
      grew = true;
    }
  }
  return vouched;
}
