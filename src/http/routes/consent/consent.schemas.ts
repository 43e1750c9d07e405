import { type TSchema, Type, type Static } from '@sinclair/typebox';
import { PageQuery } from '../../kit/envelope.js';
import { PolicyTypeSchema, PurposeKeySchema } from '../policies/policies.schemas.js';
import { USER_REFERENCE_MAX } from '../../../domain/consent/user-reference.js';

export const MAX_METADATA_BYTES = 16 * 1024;
export const MAX_METADATA_DEPTH = 8;
export const MAX_BATCH_ITEMS = 1000;

const Uuid = Type.String({ format: 'uuid' });
export const UserReferenceSchema = Type.String({
  minLength: 1,
  maxLength: USER_REFERENCE_MAX,
  description: 'your identifier of the end user, 1..255 characters',
});
/**
 * The longest path segment a user reference may need: 255 characters of 4 UTF-8 bytes each, every
 * byte percent-encoded (`%F0%9F%99%82` is one character). The router refuses longer parameters.
 */
export const MAX_PATH_PARAMETER = USER_REFERENCE_MAX * 4 * 3;
const UserReference = UserReferenceSchema;
const Metadata = Type.Object({}, { additionalProperties: true, description: 'a JSON object, at most 16 KiB serialized and 8 levels deep' });

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const ErasedReference = Type.Union([Type.String(), Type.Null()], { description: 'null once the subject was erased (docs/erasure.md)' });
const ErasedMetadata = Type.Union([Metadata, Type.Null()], { description: 'null once the subject was erased' });
const Erased = Type.Boolean({ description: "true once the subject's personal data was erased: the personal fields are null" });
const Tampered = Type.Boolean({
  description:
    'true when the personal fields do not open with their key (the stored record was changed): they are null; never reported as erased. On GET /consent/:id also when an event of the record is one the service did not append, or was changed in place so that its events no longer chain (docs/verifying.md): its status and decision may read what a forger wrote',
});

const ConsentFields = {
  policyVersionId: Uuid,
  userReference: UserReference,
  consentGiven: Type.Boolean({ description: 'true = consent given, false = rejected' }),
  ipAddress: Type.Optional(
    Type.Union([Type.String({ format: 'ip', maxLength: 64 }), Type.Null()], {
      description: 'IPv4 or IPv6; taken from the request when omitted (not for a batch item with collectedAt: null then)',
    }),
  ),
  userAgent: Type.Optional(
    Type.Union([Type.String({ maxLength: 1024 }), Type.Null()], {
      description: 'taken from the User-Agent header when omitted (not for a batch item with collectedAt: null then)',
    }),
  ),
  metadata: Type.Optional(Type.Union([Metadata, Type.Null()])),
};

/** How a decision names its policy version: by id, or the version in force now for a purpose or a type. */
const VersionNaming = {
  policyVersionId: Type.Optional(Uuid),
  purpose: Type.Optional({
    ...PurposeKeySchema,
    description: 'instead of policyVersionId: the version of this purpose in force now (a batch item with collectedAt: in force then)',
  }),
  policyType: Type.Optional({
    ...PolicyTypeSchema,
    description:
      "instead of policyVersionId: the version of this type's own purpose in force now, else of its only purpose (a batch item with collectedAt: in force then); 400 when the type has versions of several purposes and none of its own",
  }),
};

/**
 * One decision: on a policy version by its id, or on the version in force for a purpose or a
 * policy type (exactly one of the three; a browser form names the purpose, docs/browser.md).
 */
export const ConsentCreateSchema = Type.Object(
  {
    ...ConsentFields,
    ...VersionNaming,
  },
  { additionalProperties: false },
);
export type ConsentCreate = Static<typeof ConsentCreateSchema>;

/** What a publishable key is answered (docs/browser.md): the record's id and its public verification link, nothing it could read back. */
export const CollectedConsentSchema = Type.Object({
  id: Uuid,
  verifyUrl: Type.String({ description: 'the public verification page of the record (its id and consentHash)' }),
});

/** A batch item may carry the original times of a decision imported from another platform (docs/purposes.md, Moving in). */
const ImportedFields = {
  collectedAt: Type.Optional(
    Type.String({
      format: 'date-time',
      description:
        'when the decision was originally made, for history moved from another platform: from 1990-01-01T00:00:00Z on, in the past. The record is `imported: true`; `collectedAt` enters its consentHash input (docs/hashing.md)',
    }),
  ),
  withdrawnAt: Type.Optional(
    Type.String({
      format: 'date-time',
      description:
        "with collectedAt, on a consent given: when it was withdrawn on the other platform (not before collectedAt, in the past); recorded as it happened even after the purpose's validity ran out (the record reads withdrawn)",
    }),
  ),
};
/** A batch item whose policy version is named by its id (what `consent-ledger import` records). */
export const ConsentBatchItemSchema = Type.Object({ ...ConsentFields, ...ImportedFields }, { additionalProperties: false });
/** A decision whose policy version is known (a batch item, or a single one once its purpose or type was resolved). */
export type ResolvedConsent = Omit<ConsentCreate, 'policyVersionId' | 'purpose' | 'policyType'> & { policyVersionId: string };
export type ConsentBatchItem = Static<typeof ConsentBatchItemSchema>;

/**
 * A batch item as a request names it: as a single decision does, by the version's id or by the
 * purpose or policy type whose version is in force now (exactly one; the id for an imported one).
 */
const ConsentBatchRequestItemSchema = Type.Object(
  {
    ...ConsentFields,
    ...ImportedFields,
    ...VersionNaming,
  },
  { additionalProperties: false },
);
export type ConsentBatchRequestItem = Static<typeof ConsentBatchRequestItemSchema>;

export const ConsentBatchSchema = Type.Object(
  { consents: Type.Array(ConsentBatchRequestItemSchema, { minItems: 1, maxItems: MAX_BATCH_ITEMS }) },
  { additionalProperties: false },
);

export const WithdrawSchema = Type.Optional(
  Type.Object({ reason: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])) }, { additionalProperties: false }),
);

const StandingFields = {
  purpose: Type.Optional(PurposeKeySchema),
  policyType: Type.Optional(PolicyTypeSchema),
  reason: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
};
/** What to withdraw of a user's: one purpose, or every purpose of a policy type (exactly one of the two). */
export const WithdrawStandingSchema = Type.Object(StandingFields, { additionalProperties: false });
/** The same with the user reference in the body, for references too long or awkward for a path. */
export const WithdrawStandingBodySchema = Type.Object(
  { userReference: UserReferenceSchema, ...StandingFields },
  { additionalProperties: false },
);

export const ConsentIdParamsSchema = Type.Object({ id: Uuid });
export const UserParamsSchema = Type.Object({ userReference: UserReference });
export const VerifyQuerySchema = Type.Object({ consentId: Uuid });
export const IdempotencyHeadersSchema = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x21-\\x7E]+$',
      'x-message': 'must be 1 to 255 printable ASCII characters, without spaces',
      description:
        'a repeat with the same key and body answers the first response (Idempotent-Replayed: true), for as long as the ledger keeps the event; the same key with another body, or on another of the record, batch and withdraw routes, is 422 IDEMPOTENCY_KEY_REUSED',
    }),
  ),
});

/** A single decision's headers: a publishable key's user token besides the Idempotency-Key. */
export const RecordHeadersSchema = Type.Composite([
  IdempotencyHeadersSchema,
  Type.Object({
    'x-user-token': Type.Optional(
      Type.String({
        description:
          "publishable keys issued with a userTokenKey: a JWT (EdDSA) your backend signed for the visitor, whose sub is the decision's userReference and whose exp is at most 24 hours ahead (docs/browser.md)",
      }),
    ),
  }),
]);

export const ConsentFilterQuery = {
  userReference: Type.Optional(UserReference),
  policyType: Type.Optional(PolicyTypeSchema),
  policyVersionId: Type.Optional(Type.String({ format: 'uuid', description: 'records decided on this policy version' })),
  purpose: Type.Optional({
    ...PurposeKeySchema,
    description: 'records decided on a version of this purpose (a policy type is its own); one never defined is a 400',
  }),
  consent_type: Type.Optional(PolicyTypeSchema),
  consentGiven: Type.Optional(Type.Boolean()),
  granted: Type.Optional(Type.Boolean()),
  status: Type.Optional(
    Type.Union([Type.Literal('active'), Type.Literal('withdrawn'), Type.Literal('expired'), Type.Literal('outdated')], {
      description:
        'active, withdrawn, expired (a consent given past its expiresAt, judged at read time), or outdated (active, on a version that a newer one in force requiring re-consent replaced)',
    }),
  ),
  startDate: Type.Optional(
    Type.String({ format: 'date-or-date-time', description: 'inclusive; a date covers its whole UTC day; after endDate: 400' }),
  ),
  endDate: Type.Optional(Type.String({ format: 'date-or-date-time', description: 'inclusive; a date covers its whole UTC day' })),
};
/** `metadata.<key>=<value>`: equality on a top-level metadata value (its text: `web`, `5`, `true`), up to 5 of them. */
const MetadataFilters = {
  patternProperties: {
    // Any top-level key (each is tagged, whatever its characters) but one with a dot, which reads as a nested path.
    '^metadata\\.[^.]{1,64}$': Type.String({ minLength: 1, maxLength: 256, description: 'a top-level metadata value, as text' }),
  },
  maxProperties: 40,
};
export const ConsentFilterQuerySchema = Type.Object(ConsentFilterQuery, MetadataFilters);
export type ConsentFilterQuery = Static<typeof ConsentFilterQuerySchema>;
/** The export's filters, and its format: CSV (the default) or ISO/IEC TS 27560 records as JSON lines. */
export const ExportQuerySchema = Type.Object(
  {
    ...ConsentFilterQuery,
    format: Type.Optional(
      Type.Union([Type.Literal('csv'), Type.Literal('iso27560')], {
        description: 'csv (default), or iso27560: one ISO/IEC TS 27560 JSON-LD record per line (docs/standard-records.md)',
      }),
    ),
  },
  MetadataFilters,
);
/** A record's form: the API's own (default) or ISO/IEC TS 27560 JSON-LD. */
export const RecordFormatQuerySchema = Type.Object({
  format: Type.Optional(
    Type.Literal('iso27560', {
      description:
        'iso27560: the record as an ISO/IEC TS 27560 JSON-LD document (DPV profile), its purpose as it was when the decision was recorded',
    }),
  ),
});
/** An ISO/IEC TS 27560 record in JSON-LD (src/export/iso27560.ts; docs/standard-records.md). */
export const StandardRecordSchema = Type.Object(
  {
    '@context': Type.Object({}, { additionalProperties: true }),
    '@id': Type.String(),
    '@type': Type.Literal('dpv:ConsentRecord'),
    'dct:conformsTo': Type.Literal('https://w3id.org/dpv/schema/dpv-27560#record'),
    'dct:identifier': Type.String({ format: 'uuid' }),
  },
  { additionalProperties: true },
);
export const ConsentSearchQuerySchema = Type.Object({ ...ConsentFilterQuery, ...PageQuery }, MetadataFilters);
const { userReference: _inThePath, ...OneUserFilterQuery } = ConsentFilterQuery;
/** A user's records (`/consent/user/:userReference`): the search's filters but the user, whom the path names. */
export const UserConsentsQuerySchema = Type.Object({ ...OneUserFilterQuery, ...PageQuery }, MetadataFilters);

/** A record's purpose and expiry, each present only when it says more than the spec's fields. */
const PurposeFields = {
  purpose: Type.Optional(Type.String({ description: "the policy version's purpose; present only when it is not its policy type" })),
  expiresAt: Type.Optional(
    Type.String({
      format: 'date-time',
      description:
        "when the consent given expires (the version's consentValidFor after the decision); present only for a consent that expires",
    }),
  ),
};
/** An imported decision's original time (docs/purposes.md, Moving in); both absent for the others. */
const ImportedOut = {
  collectedAt: Type.Optional(
    Type.String({
      format: 'date-time',
      description:
        'when the decision was originally made, on another platform; present only for an imported record (in its consentHash input)',
    }),
  ),
  imported: Type.Optional(Type.Literal(true, { description: 'present (true) only for a decision imported with collectedAt' })),
};
/** A record's status at read time, with its purpose and expiry. */
const RecordStanding = {
  status: Type.String({ description: 'active, withdrawn, or expired (a consent given past its expiresAt, at read time)' }),
  ...PurposeFields,
};

export const RecordedConsentSchema = Type.Object({
  id: Uuid,
  consentHash: Type.String(),
  userReference: ErasedReference,
  policyVersionId: Uuid,
  consentGiven: Type.Boolean(),
  timestamp: Type.String({ format: 'date-time' }),
  ...PurposeFields,
  ...ImportedOut,
});

/** Who made a change: an API key by its id (never its secret), the operator's admin API, its CLI, or the service (an expiry). */
const ActorSchema = Type.Object(
  {
    type: Type.Union([Type.Literal('key'), Type.Literal('operator'), Type.Literal('cli'), Type.Literal('service')]),
    id: Type.Optional(
      Type.String({ description: 'the API key (ck_…, or pk_… for a publishable key: collected in the browser), for type key' }),
    ),
  },
  { description: "who made the change, as the ledger event's metadata names it" },
);

export const ConsentSchema = Type.Object({
  id: Uuid,
  consentHash: Type.String(),
  userReference: ErasedReference,
  policyVersionId: Uuid,
  consentGiven: Type.Boolean(),
  ...RecordStanding,
  ipAddress: Nullable(Type.String()),
  userAgent: Nullable(Type.String()),
  metadata: ErasedMetadata,
  createdAt: Type.String({ format: 'date-time' }),
  timestamp: Type.String({ format: 'date-time' }),
  ...ImportedOut,
  withdrawnAt: Nullable(Type.String({ format: 'date-time' })),
  withdrawalReason: Nullable(Type.String()),
  erased: Erased,
  tampered: Tampered,
  policyDetails: Type.Object({ title: Type.String(), type: Type.String(), version: Type.String(), contentHash: Type.String() }),
  recordedBy: Type.Optional(ActorSchema),
  withdrawnBy: Type.Optional(ActorSchema),
  collectedVia: Type.Optional(Type.Literal('browser', { description: 'the decision was collected in a browser, with a publishable key' })),
});

export const UserConsentSchema = Type.Object({
  id: Uuid,
  userReference: ErasedReference,
  policyVersionId: Uuid,
  consentGiven: Type.Boolean(),
  ...RecordStanding,
  createdAt: Type.String({ format: 'date-time' }),
  ...ImportedOut,
  withdrawnAt: Nullable(Type.String({ format: 'date-time' })),
  erased: Erased,
  tampered: Tampered,
  policyDetails: Type.Object({ title: Type.String(), type: Type.String() }),
});

export const SearchItemSchema = Type.Object({
  id: Uuid,
  consentHash: Type.String(),
  userReference: ErasedReference,
  policyVersionId: Uuid,
  policyType: Type.String(),
  policyVersion: Type.String(),
  consentGiven: Type.Boolean(),
  ...RecordStanding,
  ipAddress: Nullable(Type.String()),
  userAgent: Nullable(Type.String()),
  metadata: ErasedMetadata,
  createdAt: Type.String({ format: 'date-time' }),
  ...ImportedOut,
  withdrawnAt: Nullable(Type.String({ format: 'date-time' })),
  erased: Erased,
  tampered: Tampered,
});

export const VerificationSchema = Type.Object({
  valid: Type.Boolean(),
  consentId: Uuid,
  storedHash: Type.String(),
  computedHash: Type.Union([Type.String(), Type.Null()], {
    description: 'null when the hash cannot be recomputed (the subject was erased)',
  }),
  verifiedAt: Type.String({ format: 'date-time' }),
  erased: Erased,
  tampered: Tampered,
  reason: Type.Union([Type.String(), Type.Null()], { description: 'why valid is false; null when valid' }),
});

export const StatsSchema = Type.Object({
  totalConsents: Type.Integer(),
  acceptedConsents: Type.Integer(),
  rejectedConsents: Type.Integer(),
  acceptanceRate: Type.Number({ description: 'accepted / total × 100, one decimal; 0 when total is 0' }),
  consentsByPolicy: Type.Array(Type.Object({ policyType: Type.String(), count: Type.Integer() })),
  consentsByPurpose: Type.Optional(
    Type.Array(Type.Object({ purpose: Type.String(), count: Type.Integer() }), {
      description:
        'records per purpose (a policy type is its own purpose), most first; present only when a purpose other than a policy type has records',
    }),
  ),
});

export const BatchResultSchema = Type.Object({
  processed: Type.Integer(),
  consents: Type.Array(Type.Object({ id: Uuid, userReference: ErasedReference, consentGiven: Type.Boolean() })),
});

export const UserStatusSchema = Type.Object({
  userReference: Type.String(),
  policies: Type.Array(
    Type.Object({
      purpose: Type.String({ description: 'the purpose (its policy type for versions published without one)' }),
      policyType: Nullable(Type.String({ description: "the decided version's type; for none, the type of the version in force" })),
      status: Type.Union(
        ['given', 'rejected', 'withdrawn', 'expired', 'outdated', 'none'].map((s) => Type.Literal(s)),
        {
          description:
            'the latest decision as it stands now: withdrawn; expired (a consent past expiresAt); outdated (a newer version that requires re-consent is in force); given or rejected; none (a defined purpose with no decision)',
        },
      ),
      consentGiven: Nullable(Type.Boolean({ description: 'what was decided; null for none' })),
      consentId: Nullable(Uuid),
      policyVersionId: Nullable(Uuid),
      policyVersion: Nullable(Type.String({ description: 'the version decided on' })),
      decidedAt: Nullable(Type.String({ format: 'date-time' })),
      expiresAt: Nullable(Type.String({ format: 'date-time', description: 'when the consent given expires; null: never' })),
      withdrawnAt: Nullable(Type.String({ format: 'date-time' })),
      inForce: Nullable(
        Type.Object(
          { policyVersionId: Uuid, policyVersion: Type.String(), effectiveDate: Type.String({ format: 'date-time' }) },
          { description: 'the version of the purpose in force now (active, effective, latest); null when none is' },
        ),
      ),
    }),
  ),
});

/** What a `write` key is told of a record it withdrew: it reads no record back (docs/contract.md, Keys and scopes). */
export const WithdrawalSchema = Type.Object(
  {
    id: Uuid,
    status: Type.Literal('withdrawn'),
    withdrawnAt: Type.String({ format: 'date-time' }),
    withdrawalReason: Nullable(Type.String()),
  },
  { description: 'the answer to a write key: the withdrawal, not the record' },
);

/** The withdrawn record (admin key), or the withdrawal alone (write key). */
export const WithdrawnSchema = Type.Union([ConsentSchema, WithdrawalSchema]);

export const WithdrawnStandingSchema = Type.Object({
  userReference: Type.String(),
  withdrawn: Type.Array(WithdrawnSchema, {
    description: 'the records withdrawn: one per purpose the user stood by (to a write key, each withdrawal alone)',
  }),
});

export const UserStatusQuerySchema = Type.Object({
  purpose: Type.Optional({ ...PurposeKeySchema, description: 'only this purpose (none when the user has not decided on it)' }),
});

export const ReconsentQuerySchema = Type.Object({
  purpose: Type.Optional({ ...PurposeKeySchema, description: 'only this purpose (a policy type is its own); absent: every purpose' }),
  format: Type.Optional(
    Type.Union([Type.Literal('json'), Type.Literal('csv')], {
      description: 'csv streams every subject as CSV (Starter plan or above, as the export); json (the default) answers a page',
    }),
  ),
  ...PageQuery,
});

export const ReconsentItemSchema = Type.Object({
  userReference: ErasedReference,
  consentId: Uuid,
  purpose: Type.String(),
  consentGiven: Type.Boolean({ description: 'the outdated decision: a consent given or a refusal' }),
  decidedAt: Type.String({ format: 'date-time' }),
  policyVersionId: Type.String({ format: 'uuid', description: 'the version decided on, now outdated' }),
  policyVersion: Type.String(),
  reconsentVersionId: Type.String({ format: 'uuid', description: 'the version in force that asks for re-consent' }),
  reconsentVersion: Type.String(),
  erased: Erased,
});
