import { Type, type Static } from '@sinclair/typebox';
import { POLICY_TYPES, type PolicyType } from '../../../domain/policy/policy.events.js';
import { PURPOSE_KEY, PURPOSE_KEY_RULE } from '../../../domain/purpose/purpose.events.js';
import { PageQuery } from '../../kit/envelope.js';

// One `enum` rather than a union of literals: one clear error ("must be one of: …") and a plain
// enum in the OpenAPI document.
export const PolicyTypeSchema = Type.Unsafe<PolicyType>({
  type: 'string',
  enum: [...POLICY_TYPES],
  description: 'privacy_policy, terms_of_service, cookie_policy, marketing_consent, data_processing or custom',
});

export const MAX_CONTENT_BYTES = 1024 * 1024;

/** A purpose's key (docs/purposes.md), or one of the policy types (each its own purpose). */
export const PurposeKeySchema = Type.String({
  pattern: PURPOSE_KEY.source,
  'x-message': PURPOSE_KEY_RULE,
  description: 'a purpose defined with POST /purposes, or a policy type (each is its own purpose); one neither is a 400',
});

export const PurposeQuerySchema = Type.Object({ purpose: PurposeKeySchema });
export const OptionalPurposeQuerySchema = Type.Object({ purpose: Type.Optional(PurposeKeySchema) });

export const PolicyCreateSchema = Type.Object(
  {
    policyType: PolicyTypeSchema,
    purpose: Type.Optional({
      ...PurposeKeySchema,
      description: 'a purpose defined with POST /purposes, or the version’s own policyType; absent: the policy type',
    }),
    version: Type.String({
      // No leading zeros (as SemVer): 01.4.0 would be a second label for 1.4.0, past its uniqueness.
      pattern: '^(0|[1-9]\\d{0,8})\\.(0|[1-9]\\d{0,8})\\.(0|[1-9]\\d{0,8})$',
      'x-message': 'must be major.minor.patch, each a number of up to 9 digits without leading zeros, such as 1.0.0',
      description:
        'major.minor.patch; unique per type and purpose, and per purpose across types (409 POLICY_VERSION_EXISTS, docs/purposes.md)',
      examples: ['1.0.0'],
    }),
    title: Type.String({ minLength: 1, maxLength: 500 }),
    content: Type.String({ minLength: 1, description: 'Full policy text, at most 1 MiB of UTF-8' }),
    effectiveDate: Type.Optional(Type.String({ format: 'date-time', description: 'ISO 8601; defaults to now' })),
    requiresReconsent: Type.Optional(
      Type.Boolean({
        description:
          'whether this is a material change: once it is effective, decisions on older versions of its purpose are outdated (default true)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type PolicyCreate = Static<typeof PolicyCreateSchema>;

export const PolicyUpdateSchema = Type.Object({ isActive: Type.Boolean() }, { additionalProperties: false });

export const PolicyIdParamsSchema = Type.Object({ id: Type.String({ format: 'uuid' }) });
export const PolicyTypeParamsSchema = Type.Object({ policyType: PolicyTypeSchema });

export const PolicyListQuerySchema = Type.Object({
  policyType: Type.Optional(PolicyTypeSchema),
  purpose: Type.Optional(PurposeKeySchema),
  type: Type.Optional(PolicyTypeSchema),
  isActive: Type.Optional(Type.Boolean()),
  is_active: Type.Optional(Type.Boolean()),
  ...PageQuery,
});

const PolicyBase = {
  id: Type.String({ format: 'uuid' }),
  policyType: Type.String(),
  purpose: Type.String({
    description: 'the purpose the version asks consent for: its policy type unless published with one (docs/purposes.md)',
  }),
  version: Type.String(),
  title: Type.String(),
  contentHash: Type.String({ description: 'lowercase hex SHA-256 of the content (UTF-8)' }),
  effectiveDate: Type.String({ format: 'date-time' }),
  requiresReconsent: Type.Boolean({
    description: 'whether decisions on older versions of its purpose become outdated once it is effective',
  }),
  consentValidFor: Type.Union([Type.String(), Type.Null()], {
    description:
      "the purpose's validity when the version was published (ISO 8601 duration): a consent given on it expires that long after; null: never",
  }),
  isActive: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
};
export const PolicySchema = Type.Object({ ...PolicyBase, content: Type.String() });
export const PolicyListItemSchema = Type.Object(PolicyBase);
export const MessageSchema = Type.Object({ message: Type.String() });
