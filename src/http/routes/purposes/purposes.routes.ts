import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ANY_SCOPE } from '../../scopes.js';
import { Type } from '@sinclair/typebox';
import type { Purposes } from '../../../application/purposes/purposes.js';
import {
  DPV_TERM,
  LEGAL_BASES,
  LEGAL_BASIS_FORMS,
  LEGAL_BASIS_POINTS,
  legalBasisOf,
  PURPOSE_KEY,
  PURPOSE_KEY_RULE,
  type LegalBasis,
} from '../../../domain/purpose/purpose.events.js';
import { validationError } from '../../kit/errors.js';
import { EnvelopeSchema, errorResponses, ListEnvelopeSchema, ok, okList, PageQuery, pageOf } from '../../kit/envelope.js';

const tags = ['purposes'];

const Key = Type.String({
  pattern: PURPOSE_KEY.source,
  'x-message': PURPOSE_KEY_RULE,
  description: 'the purpose’s name in the API, for good',
});
const Fields = {
  name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', 'x-pattern-message': 'must hold a character other than spaces' }),
  description: Type.String({ maxLength: 5000 }),
  legalBasis: Type.Union(
    LEGAL_BASES.map((b) => Type.Literal(b)),
    { description: LEGAL_BASIS_POINTS },
  ),
  consentValidFor: Type.Union(
    [
      Type.String({
        pattern: '^P(?!$)(\\d{1,4}Y)?(\\d{1,5}M)?(\\d{1,5}W)?(\\d{1,6}D)?(T(?=\\d)(\\d{1,6}H)?(\\d{1,8}M)?(\\d{1,9}S)?)?$',
        description: 'an ISO 8601 duration (P13M, P1Y, P90D), at most 100 years, after which a decision on this purpose expires',
        'x-message': 'must be an ISO 8601 duration longer than zero and at most 100 years, in whole units, such as P13M',
      }),
      Type.Null(),
    ],
    { description: 'null: decisions never expire' },
  ),
  dpv: Type.Union([
    Type.String({
      pattern: DPV_TERM.source,
      description:
        'a W3C Data Privacy Vocabulary purpose: dpv:Marketing, or its IRI (a purpose of DPV’s core, checked by name with its case: 400 otherwise, naming the nearest term; a name without its prefix too), or an extension’s IRI',
      'x-message': 'must be a W3C DPV purpose term, such as dpv:Marketing, or its IRI, such as https://w3id.org/dpv#Marketing',
    }),
    Type.Null(),
  ]),
};

/** A description as a tenant may send it: null is none (answered as ""). */
const DescriptionInput = Type.Union([Fields.description, Type.Null()], { description: 'up to 5,000 characters; null or absent: none' });

/** A legal basis as a tenant may write it: its name, its letter of Art. 6(1), or its DPV GDPR term (answered as its name). */
const LegalBasisInput = Type.String({
  minLength: 1,
  maxLength: 100,
  description: `${LEGAL_BASIS_POINTS}; or ${LEGAL_BASIS_FORMS}. Answered as its name.`,
});

/** The name of the legal basis `text` writes; 400 naming the field otherwise. */
function legalBasis(text: string): LegalBasis {
  const basis = legalBasisOf(text);
  if (basis) return basis;
  throw validationError([{ field: 'legalBasis', message: `must be one of: ${LEGAL_BASES.join(', ')}; or ${LEGAL_BASIS_FORMS}` }]);
}

export const PurposeSchema = Type.Object({
  key: Type.String(),
  ...Fields,
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

const CreateSchema = Type.Object(
  {
    key: Key,
    name: Fields.name,
    description: Type.Optional(DescriptionInput),
    legalBasis: LegalBasisInput,
    consentValidFor: Type.Optional(Fields.consentValidFor),
    dpv: Type.Optional(Fields.dpv),
  },
  { additionalProperties: false },
);

const ChangeSchema = Type.Object(
  {
    name: Type.Optional(Fields.name),
    description: Type.Optional(DescriptionInput),
    legalBasis: Type.Optional(LegalBasisInput),
    consentValidFor: Type.Optional(Fields.consentValidFor),
    dpv: Type.Optional(Fields.dpv),
  },
  { additionalProperties: false, minProperties: 1 },
);

const KeyParams = Type.Object({ key: Key });

/** POST/GET/PATCH /purposes, tenant-scoped: the purposes a tenant asks consent for (each change a ledger event). */
export const purposesRoutes: FastifyPluginAsyncTypebox<{ purposes: Purposes }> = async (app, { purposes }) => {
  app.post(
    '/purposes',
    {
      schema: {
        tags,
        summary: 'Define a purpose',
        description:
          'Its key names it for good; a key defined before answers 409 PURPOSE_EXISTS. Recorded in the ledger (PurposeDefined) and in the tenant’s transparency log.',
        body: CreateSchema,
        response: { 201: EnvelopeSchema(PurposeSchema), ...errorResponses(400, 401, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const view = await purposes.define(request.tenant.tenantId, {
        key: b.key,
        name: b.name,
        description: b.description ?? '',
        legalBasis: legalBasis(b.legalBasis),
        consentValidFor: b.consentValidFor ?? null,
        dpv: b.dpv ?? null,
      });
      return reply.status(201).send(ok(view));
    },
  );

  app.get(
    '/purposes',
    {
      config: { scopes: ANY_SCOPE },
      schema: {
        tags,
        summary: 'List the purposes, by key',
        querystring: Type.Object(PageQuery),
        response: { 200: ListEnvelopeSchema(PurposeSchema), ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const { page, limit } = pageOf(request.query);
      const { items, total } = await purposes.list(request.tenant.tenantId, page, limit);
      return okList(items, page, limit, total);
    },
  );

  app.get(
    '/purposes/:key',
    {
      config: { scopes: ANY_SCOPE },
      schema: {
        tags,
        summary: 'Get a purpose',
        params: KeyParams,
        response: { 200: EnvelopeSchema(PurposeSchema), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => ok(await purposes.get(request.tenant.tenantId, request.params.key)),
  );

  // PUT and PATCH alike, as every update of the API (docs/contract.md).
  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/purposes/:key',
      schema: {
        tags,
        summary: `Change a purpose (${method})`,
        description:
          'Changes the fields given (the key stays); only what differs is recorded (PurposeChanged). 404 for a key never defined.',
        params: KeyParams,
        body: ChangeSchema,
        response: { 200: EnvelopeSchema(PurposeSchema), ...errorResponses(400, 401, 404, 413, 415) },
      },
      handler: async (request) => {
        const { legalBasis: basis, description, ...rest } = request.body;
        const change = {
          ...rest,
          ...(description === undefined ? {} : { description: description ?? '' }),
          ...(basis === undefined ? {} : { legalBasis: legalBasis(basis) }),
        };
        return ok(await purposes.change(request.tenant.tenantId, request.params.key, change));
      },
    });
  }
};
