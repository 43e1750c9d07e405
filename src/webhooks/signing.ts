import { createHmac, randomBytes } from 'node:crypto';
import { webhookSecretScope, type RewrapSecrets } from '../privacy/key-store.js';
import { webhooksDb } from './webhooks.table.js';

const PREFIX = 'whsec_';

/** A generated secret: `whsec_` + base64 of 24 random bytes. */
export const generateSecret = (): string => `${PREFIX}${randomBytes(24).toString('base64')}`;

/**
 * The key of the Standard Webhooks signature: the base64-decoded part after `whsec_`, or the raw
 * UTF-8 bytes of a caller's secret without that prefix.
 */
export function standardKey(secret: string): Buffer {
  return secret.startsWith(PREFIX) ? Buffer.from(secret.slice(PREFIX.length), 'base64') : Buffer.from(secret, 'utf8');
}

/** Whether a caller's `whsec_…` secret decodes as base64 (other secrets are used as their bytes). */
export function isUsableSecret(secret: string): boolean {
  if (!secret.startsWith(PREFIX)) return true;
  const b64 = secret.slice(PREFIX.length);
  return /^[A-Za-z0-9+/]+={0,2}$/.test(b64) && b64.length % 4 === 0 && standardKey(secret).length > 0;
}

/**
 * The signature headers of one delivery (docs/contract.md, Webhooks).
 *
 * @example
 * signatureHeaders({ secret, webhookId, eventId, body, timestamp: 1700000000 })
 * // { 'x-signature': hex, 'x-timestamp': '1700000000', 'x-webhook-id': webhookId,
 * //   'webhook-id': eventId, 'webhook-timestamp': '1700000000', 'webhook-signature': 'v1,…' }
 */
export function signatureHeaders(input: {
  secret: string;
  webhookId: string;
  eventId: string;
  body: string;
  timestamp: number;
}): Record<string, string> {
  const ts = String(input.timestamp);
  return {
    'x-signature': createHmac('sha256', Buffer.from(input.secret, 'utf8')).update(input.body, 'utf8').digest('hex'),
    'x-timestamp': ts,
    'x-webhook-id': input.webhookId,
    'webhook-id': input.eventId,
    'webhook-timestamp': ts,
    'webhook-signature': `v1,${createHmac('sha256', standardKey(input.secret)).update(`${input.eventId}.${ts}.${input.body}`, 'utf8').digest('base64')}`,
  };
}

/** Wraps and opens signing secrets with the master key (Privacy). */
export interface SecretBox {
  wrapSecret(scope: string, value: string): string;
  unwrapSecret(scope: string, wrapped: string): string;
}

/**
 * A webhook's signing secret as stored: wrapped (`secret_wrapped`), or in clear (`secret`) in a
 * row an earlier version wrote and the service has not wrapped yet.
 */
export const storedSecret = (box: SecretBox, webhookId: string, row: { secret: string; secret_wrapped: string | null }): string =>
  row.secret_wrapped === null ? row.secret : box.unwrapSecret(webhookSecretScope(webhookId), row.secret_wrapped);

/**
 * `keys rotate-master`'s part for webhooks: every signing secret re-wrapped under the new master
 * key, in the rotation's transaction (a secret an earlier version left in clear is wrapped now).
 * Answers how many.
 */
export const rewrapWebhookSecrets: RewrapSecrets = async (tx, rewrap) => {
  const w = webhooksDb(tx);
  const hooks = await w
    .selectFrom('webhooks.endpoints')
    .select(['id', 'secret', 'secret_wrapped'])
    .where((eb) => eb.or([eb('secret_wrapped', 'is not', null), eb('secret', '<>', '')]))
    .forUpdate()
    .execute();
  for (const h of hooks) {
    const scope = webhookSecretScope(h.id);
    const value = h.secret_wrapped === null ? Buffer.from(h.secret, 'utf8') : rewrap.unwrap(scope, h.secret_wrapped);
    await w
      .updateTable('webhooks.endpoints')
      .set({ secret: '', secret_wrapped: rewrap.wrap(scope, value) })
      .where('id', '=', h.id)
      .execute();
  }
  return hooks.length;
};
