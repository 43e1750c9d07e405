import { Type, type TSchema } from '@sinclair/typebox';

export const now = (): string => new Date().toISOString();

/** `{ success: true, data, meta: { timestamp } }` */
export const ok = <T>(data: T, meta: Record<string, unknown> = {}) => ({
  success: true as const,
  data,
  meta: { timestamp: now(), ...meta },
});

export interface Pagination {
  page: number;
  limit: number;
  total: number;
  pages: number;
}

export const pagination = (page: number, limit: number, total: number): Pagination => ({
  page,
  limit,
  total,
  pages: Math.ceil(total / limit),
});

/** `{ success: true, data: [...], pagination, meta }` */
export const okList = <T>(data: T[], page: number, limit: number, total: number) => ({
  success: true as const,
  data,
  pagination: pagination(page, limit, total),
  meta: { timestamp: now() },
});

export const MetaSchema = Type.Object({ timestamp: Type.String({ format: 'date-time' }) }, { additionalProperties: true });

export const EnvelopeSchema = <T extends TSchema>(data: T) => Type.Object({ success: Type.Literal(true), data, meta: MetaSchema });

export const PaginationSchema = Type.Object({
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer(),
  pages: Type.Integer(),
});

export const ListEnvelopeSchema = <T extends TSchema>(item: T) =>
  Type.Object({ success: Type.Literal(true), data: Type.Array(item), pagination: PaginationSchema, meta: MetaSchema });

export const ErrorEnvelopeSchema = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.Object({
      code: Type.String(),
      message: Type.String(),
      details: Type.Optional(Type.Object({}, { additionalProperties: true })),
    }),
    meta: MetaSchema,
  },
  { $id: 'ErrorEnvelope' },
);

/** The error answers every route may give, for the OpenAPI document. */
export const errorResponses = (...statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, Type.Ref('ErrorEnvelope')]));

/**
 * An integer parameter held to what its use can hold: a JavaScript safe integer at most, which a
 * PostgreSQL bigint holds too. An unbounded integer reached the database as 1e19 and failed there.
 *
 * @example
 * Type.Object({ after: Type.Optional(BoundedInteger(-1, Number.MAX_SAFE_INTEGER, { default: -1 })) })
 */
export const BoundedInteger = (minimum: number, maximum: number, options: { default?: number; description?: string } = {}) =>
  Type.Integer({ minimum, maximum, ...options });

export const PageQuery = {
  // Bounded so that (page - 1) × limit stays a safe integer and a valid SQL OFFSET.
  page: Type.Optional(BoundedInteger(1, 2_147_483_647, { default: 1 })),
  limit: Type.Optional(BoundedInteger(1, 100, { default: 20 })),
};

/** A list query's page and limit, with PageQuery's defaults. */
export const pageOf = (q: { page?: number | undefined; limit?: number | undefined }): { page: number; limit: number } => ({
  page: q.page ?? 1,
  limit: q.limit ?? 20,
});

/** Whether a list route answers CSV: `format=csv`, or no format and an `Accept` naming text/csv. */
export const wantsCsv = (format: string | undefined, accept: string | undefined): boolean =>
  format === 'csv' || (format === undefined && /\btext\/csv\b/.test(accept ?? ''));
