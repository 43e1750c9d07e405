import { COLLECTED_AT_MIN } from '../../../domain/consent/consent.decider.js';
import { fieldErrors, findUnstorable, jsonDepth, validatorCompiler, type FieldError } from '../../kit/validation.js';
import {
  ConsentBatchItemSchema,
  MAX_METADATA_BYTES,
  MAX_METADATA_DEPTH,
  type ConsentBatchItem,
  type ConsentCreate,
} from './consent.schemas.js';

/** The fields a decision may name its policy version by (`namingErrors`). */
export const NAMING_FIELDS: ReadonlySet<string> = new Set(['policyVersionId', 'purpose', 'policyType']);

/**
 * How a decision names its policy version: exactly one of policyVersionId, purpose and policyType
 * (the latter two: the version in force now, or for an imported decision when it was made).
 */
export function namingErrors(
  item: {
    policyVersionId?: string | undefined;
    purpose?: string | undefined;
    policyType?: string | undefined;
  },
  prefix: string,
): FieldError[] {
  const { policyVersionId, purpose, policyType } = item;
  const named = [policyVersionId, purpose, policyType].filter((x) => x !== undefined).length;
  // Without any, the spec's own answer: policyVersionId is required (purpose or policyType may stand in for it).
  if (named === 0) return [{ field: `${prefix}policyVersionId`, message: 'is required' }];
  if (named > 1) {
    const [field, others] = policyVersionId !== undefined ? ['policyVersionId', 'purpose or policyType'] : ['purpose', 'policyType'];
    return [{ field: `${prefix}${field}`, message: `must not be given with ${others}: name the version one way` }];
  }
  return [];
}

/** Checks JSON Schema cannot express: metadata size and depth, and values the ledger cannot hold. */
export function itemErrors(item: Omit<ConsentCreate, 'policyVersionId'>, prefix: string): FieldError[] {
  const errors: FieldError[] = [];
  const bad = findUnstorable(item);
  if (bad) errors.push({ field: `${prefix}${bad.field}`, message: bad.message });
  if (item.metadata) {
    // Depth first: serializing a value nested 100,000 deep would exhaust the stack.
    if (jsonDepth(item.metadata, MAX_METADATA_DEPTH) > MAX_METADATA_DEPTH) {
      errors.push({ field: `${prefix}metadata`, message: `must be at most ${MAX_METADATA_DEPTH} levels deep` });
    } else if (Buffer.byteLength(JSON.stringify(item.metadata), 'utf8') > MAX_METADATA_BYTES) {
      errors.push({ field: `${prefix}metadata`, message: 'must be at most 16 KiB serialized' });
    }
  }
  return errors;
}

/**
 * An imported item's times: `collectedAt` after 1990 and in the past; `withdrawnAt` only with it,
 * on a consent given, between it and now. Checked before the ledger's own refusal so that one
 * answer names every bad item.
 */
export function importedErrors(
  item: Pick<ConsentBatchItem, 'collectedAt' | 'withdrawnAt' | 'consentGiven'>,
  prefix: string,
  now: Date,
): FieldError[] {
  const errors: FieldError[] = [];
  const collected = item.collectedAt === undefined ? undefined : Date.parse(item.collectedAt);
  if (collected !== undefined) {
    if (collected < Date.parse(COLLECTED_AT_MIN)) errors.push({ field: `${prefix}collectedAt`, message: 'must not be before 1990' });
    else if (collected > now.getTime()) errors.push({ field: `${prefix}collectedAt`, message: 'must be in the past' });
  }
  if (item.withdrawnAt !== undefined) {
    const withdrawn = Date.parse(item.withdrawnAt);
    const field = `${prefix}withdrawnAt`;
    if (collected === undefined) errors.push({ field, message: 'is only taken with collectedAt (an imported decision)' });
    else if (!item.consentGiven) errors.push({ field, message: 'a rejected consent cannot be withdrawn' });
    else if (withdrawn < collected) errors.push({ field, message: 'must not be before collectedAt' });
    else if (withdrawn > now.getTime()) errors.push({ field, message: 'must be in the past' });
  }
  return errors;
}

const validateItem = validatorCompiler({ schema: ConsentBatchItemSchema, httpPart: 'body', method: 'POST', url: '/consent/batch' }) as (
  data: unknown,
) => { value?: unknown; error?: Error & { validation?: unknown } };

/**
 * Every check a batch item gets over HTTP (its schema, then the checks above), for an item that
 * reaches the ledger another way (`consent-ledger import`). Empty when the item may be recorded.
 */
export function batchItemErrors(value: unknown, now: Date): FieldError[] {
  const { error } = validateItem(value);
  if (error) return fieldErrors(error.validation as never);
  const item = value as ConsentBatchItem;
  return [...itemErrors(item, ''), ...importedErrors(item, '', now)];
}
