import { decodePolicyEvent } from '../policy/policy.events.js';
import { decodePurposeEvent } from '../purpose/purpose.events.js';
import { decodeSubjectEvent } from '../subject/subject.events.js';
import { CONFIG_EVENT_TYPES, decodeConfigEvent } from './config.events.js';
import type { StoredEvent } from '../events.js';

/**
 * The audit trail's actions (docs/audit-log.md): every change to a tenant's configuration, named
 * `<thing>.<what happened>`.
 */
export const AUDIT_ACTIONS = [
  'tenant.created',
  'tenant.changed',
  'key.issued',
  'key.revoked',
  'key.expired',
  'webhook.created',
  'webhook.changed',
  'webhook.deleted',
  'purpose.defined',
  'purpose.changed',
  'policy.published',
  'policy.activated',
  'policy.deactivated',
  'policy.deleted',
  'subject.erased',
  'master_key.rotated',
  'signing_key.rotated',
  'history.imported',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_TARGETS = [
  'tenant',
  'key',
  'webhook',
  'purpose',
  'policy_version',
  'subject',
  'master_key',
  'signing_key',
  'import',
] as const;
export type AuditTargetType = (typeof AUDIT_TARGETS)[number];

/** What an audit entry says of its event: the action, what it acted on, and the change (never a secret). */
export interface AuditFacts {
  action: AuditAction;
  target: { type: AuditTargetType; id: string | null };
  details: Record<string, unknown>;
}

/** Every ledger event type the audit trail lists. */
export const AUDITED_EVENT_TYPES: readonly string[] = [
  ...CONFIG_EVENT_TYPES,
  'PurposeDefined',
  'PurposeChanged',
  'PolicyVersionPublished',
  'PolicyVersionActivated',
  'PolicyVersionDeactivated',
  'PolicyVersionDeleted',
  'SubjectErased',
];

const without = (data: object, ...keys: string[]): Record<string, unknown> =>
  Object.fromEntries(Object.entries(data).filter(([k]) => !keys.includes(k)));

/**
 * What the audit trail says of a stored event, or null when it is not a configuration change.
 *
 * @example
 * auditFacts({ type: 'ApiKeyRevoked', data: { apiKey: 'ck_…', at } }, tenantId)
 * // { action: 'key.revoked', target: { type: 'key', id: 'ck_…' }, details: {} }
 */
export function auditFacts(stored: StoredEvent, tenantId: string): AuditFacts | null {
  const config = decodeConfigEvent(stored);
  if (config) {
    switch (config.type) {
      case 'TenantCreated':
        return { action: 'tenant.created', target: { type: 'tenant', id: tenantId }, details: without(config.data, 'at') };
      case 'TenantSettingsChanged':
        return { action: 'tenant.changed', target: { type: 'tenant', id: tenantId }, details: without(config.data, 'at') };
      case 'ApiKeyIssued':
        return {
          action: 'key.issued',
          target: { type: 'key', id: config.data.apiKey },
          details: without(config.data, 'apiKey', 'at', 'secretCheck'),
        };
      case 'ApiKeyRevoked':
        return { action: 'key.revoked', target: { type: 'key', id: config.data.apiKey }, details: {} };
      case 'ApiKeyExpired':
        return { action: 'key.expired', target: { type: 'key', id: config.data.apiKey }, details: { expiresAt: config.data.expiresAt } };
      case 'WebhookCreated':
        return {
          action: 'webhook.created',
          target: { type: 'webhook', id: config.data.webhookId },
          details: without(config.data, 'webhookId', 'at'),
        };
      case 'WebhookChanged':
        return {
          action: 'webhook.changed',
          target: { type: 'webhook', id: config.data.webhookId },
          details: without(config.data, 'webhookId', 'at'),
        };
      case 'WebhookDeleted':
        return { action: 'webhook.deleted', target: { type: 'webhook', id: config.data.webhookId }, details: {} };
      case 'MasterKeyRotated':
        return { action: 'master_key.rotated', target: { type: 'master_key', id: null }, details: {} };
      case 'SigningKeyRotated':
        return {
          action: 'signing_key.rotated',
          target: { type: 'signing_key', id: config.data.current },
          details: without(config.data, 'at'),
        };
      case 'HistoryImported':
        return {
          action: 'history.imported',
          target: { type: 'import', id: config.data.importId },
          details: without(config.data, 'importId', 'at'),
        };
    }
  }
  const purpose = decodePurposeEvent(stored);
  if (purpose) {
    const target = { type: 'purpose' as const, id: purpose.data.key };
    const details = without(purpose.data, 'key', 'at');
    return purpose.type === 'PurposeDefined'
      ? { action: 'purpose.defined', target, details }
      : { action: 'purpose.changed', target, details };
  }
  const policy = decodePolicyEvent(stored);
  if (policy) {
    const target = { type: 'policy_version' as const, id: policy.data.policyVersionId };
    switch (policy.type) {
      case 'PolicyVersionPublished': {
        const d = policy.data;
        const details = {
          policyType: d.policyType,
          purpose: d.purpose ?? d.policyType,
          version: d.version,
          title: d.title,
          contentHash: d.contentHash,
          effectiveDate: d.effectiveDate,
          requiresReconsent: d.requiresReconsent ?? true,
        };
        return { action: 'policy.published', target, details };
      }
      case 'PolicyVersionActivated':
        return { action: 'policy.activated', target, details: {} };
      case 'PolicyVersionDeactivated':
        return { action: 'policy.deactivated', target, details: {} };
      case 'PolicyVersionDeleted':
        return { action: 'policy.deleted', target, details: {} };
      case 'PolicyReconsentRequired':
        return null;
    }
  }
  const subject = decodeSubjectEvent(stored);
  if (subject) {
    // The subject's keyed hash (never the user reference) and how many records the erasure covered.
    return {
      action: 'subject.erased',
      target: { type: 'subject', id: subject.data.subject },
      details: { records: subject.data.consentIds.length },
    };
  }
  return null;
}
