import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { signerFromSeed, type NoteSigner } from './note.js';
import { transparencyDb } from './transparency.table.js';

/** The key name: the host of PUBLIC_BASE_URL (`ledger.example.com`, `localhost:3000`). */
export const keyNameOf = (publicBaseUrl: string): string => new URL(publicBaseUrl).host;

/** A tenant's log origin: `<PUBLIC_BASE_URL host>/ledger/<tenantId>`. */
export const originOf = (publicBaseUrl: string, tenantId: string): string => `${keyNameOf(publicBaseUrl)}/ledger/${tenantId}`;

/** A 32-byte Ed25519 seed from 64 hex characters or base64. */
export function seedBytes(text: string): Buffer {
  const t = text.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64');
  if (bytes.length !== 32) throw new Error('TRANSPARENCY_SIGNING_KEY: expected 32 bytes (64 hex characters or base64)');
  return bytes;
}

/**
 * The checkpoint signing key: given by the operator, or else generated on the first start and kept in the store, so that every
 * process (and every restart) signs with the same key. Two processes starting together agree on
 * one: the first insert wins and both read it back.
 *
 * @example
 * const signer = await loadSigner(db, 'https://ledger.example.com');
 * signer.vkey // 'ledger.example.com+1a2b3c4d+AX…'
 */
export async function loadSigner(db: Kysely<Database>, publicBaseUrl: string, operatorSeed?: string): Promise<NoteSigner> {
  // An operator's key (TRANSPARENCY_SIGNING_KEY) wins and is never written to the store.
  if (operatorSeed) return signerFromSeed(keyNameOf(publicBaseUrl), seedBytes(operatorSeed));
  const seed = randomBytes(32);
  const fresh = signerFromSeed(keyNameOf(publicBaseUrl), seed);
  const t = transparencyDb(db);
  await t
    .insertInto('transparency.signing_keys')
    .values({ purpose: 'checkpoint', seed: seed.toString('base64'), public_key: fresh.publicKey.toString('base64') })
    .onConflict((oc) => oc.column('purpose').doNothing())
    .execute();
  const row = await t.selectFrom('transparency.signing_keys').select('seed').where('purpose', '=', 'checkpoint').executeTakeFirstOrThrow();
  return signerFromSeed(keyNameOf(publicBaseUrl), Buffer.from(row.seed, 'base64'));
}
