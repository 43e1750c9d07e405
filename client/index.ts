/**
 * A typed client of the consent-ledger API (docs/client.md): openapi-fetch over the types
 * openapi-typescript generates from docs/openapi.json (`client/schema.ts`, `npm run openapi`).
 * Every path, parameter, body and answer is checked by the compiler; answers are
 * `{ data, error, response }`, with `error` the service's error envelope.
 *
 * @example
 * const ledger = consentLedgerClient({ baseUrl: 'http://127.0.0.1:3000', apiKey, apiSecret });
 * const { data, error } = await ledger.POST('/api/v1/consent', {
 *   body: { purpose: 'newsletter', userReference: 'user-42', consentGiven: true },
 * });
 */
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema.js';

export type { components, operations, paths } from './schema.js';

export interface ConsentLedgerClientOptions {
  /** The service's address, e.g. `https://ledger.example.com` (no path). */
  baseUrl: string;
  /** `ck_…` with its secret; or a publishable key (`pk_…`), which has none. */
  apiKey: string;
  apiSecret?: string;
  /** Another fetch (a test's, a proxy's); the global one by default. */
  fetch?: typeof globalThis.fetch;
}

/**
 * Answers typed as their JSON: a route that also answers CSV, HTML or JSON-LD to those who ask
 * with `Accept` answers this client, which asks for JSON, its JSON envelope. A `format=` asked for
 * (csv, iso27560) is answered in that form: read it with `parseAs` (docs/client.md).
 */
export type ConsentLedgerClient = Client<paths, 'application/json'>;

/** A client whose every request carries the key (and secret). */
export function consentLedgerClient({ baseUrl, apiKey, apiSecret, fetch }: ConsentLedgerClientOptions): ConsentLedgerClient {
  return createClient<paths, 'application/json'>({
    baseUrl: baseUrl.replace(/\/+$/, ''),
    // JSON unless a request says otherwise (Accept: text/csv): the public receipt check answers a page to browsers.
    headers: { Accept: 'application/json', 'X-API-Key': apiKey, ...(apiSecret ? { 'X-API-Secret': apiSecret } : {}) },
    ...(fetch ? { fetch } : {}),
  });
}
