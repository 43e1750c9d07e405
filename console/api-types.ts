/**
 * The API's answers as the console reads them, taken from the types generated from the OpenAPI
 * document (client/schema.ts): the console declares none of its own, so a change to a route's
 * answer is a compile error here (`npm run typecheck`), not a blank cell.
 */
import type { paths } from '../client/schema.js';

/** What an API route answers (its JSON envelope's `data`), from the types generated from the OpenAPI document. */
type Answer<P extends keyof paths, M extends 'get' | 'post'> = paths[P][M] extends {
  responses:
    { 200: { content: { 'application/json': { data: infer D } } } } | { 201: { content: { 'application/json': { data: infer D } } } };
}
  ? D
  : never;
type One<T> = T extends readonly (infer I)[] ? I : T;

export type Session = Answer<'/console/session', 'get'>;
export type Daily = One<Answer<'/api/v1/consent/stats/daily', 'get'>>;
export type VersionCount = One<Answer<'/api/v1/consent/stats/versions', 'get'>>;
export type ConsentRecord = Answer<'/api/v1/consent/{id}', 'get'>;
export type SearchItem = One<Answer<'/api/v1/consent/search', 'get'>>;
export type Proof = Answer<'/api/v1/consent/{id}/proof', 'get'>;
export type HistoryEntry = One<Answer<'/api/v1/consent/{id}/history', 'get'>>;
export type AuditEntry = One<Exclude<Answer<'/api/v1/audit-log', 'get'>, string>>;
export type WebhookRow = One<Answer<'/api/v1/webhooks', 'get'>>;
export type Attempt = One<Answer<'/api/v1/webhooks/{id}/deliveries', 'get'>>;
export type KeyRow = One<Answer<'/api/v1/keys', 'get'>>;
export type PurposeRow = One<Answer<'/api/v1/purposes', 'get'>>;

/** Fails to compile when a route above stops answering a JSON envelope (its type would be `never`). */
type Typed<T> = [T] extends [never] ? false : true;
export const ANSWERS_TYPED: [
  Typed<Session>,
  Typed<Daily>,
  Typed<VersionCount>,
  Typed<ConsentRecord>,
  Typed<SearchItem>,
  Typed<Proof>,
  Typed<HistoryEntry>,
  Typed<AuditEntry>,
  Typed<WebhookRow>,
  Typed<Attempt>,
  Typed<KeyRow>,
  Typed<PurposeRow>,
] = [true, true, true, true, true, true, true, true, true, true, true, true];
