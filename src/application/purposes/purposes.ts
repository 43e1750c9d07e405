import type { Kysely } from 'kysely';
import { listPurposes, purposeKnown } from '../../../projections/purposes/purposes.queries.js';
import type { PurposeRow } from '../../../projections/purposes/purposes.table.js';
import { DomainError } from '../../domain/errors.js';
import { fold } from '../../domain/events.js';
import { decidePurpose, purposeAggregate, type KnownPurpose } from '../../domain/purpose/purpose.decider.js';
import { purposeStream, type PurposeFields } from '../../domain/purpose/purpose.events.js';
import type { Ledger } from '../../ledger/ledger.port.js';
import type { Database } from '../../store/schema.js';
import { write, type CommandHandler } from '../command-handler.js';
import type { ReadFence } from '../read-fence.js';

/**
 * A purpose a read is narrowed to must be one the tenant defined, or a policy type: else 400 naming
 * the field, rather than an empty answer that would read as "none" (the caller passed the fence).
 */
export async function requireKnownPurpose(db: Kysely<Database>, tenantId: string, purpose: string): Promise<void> {
  if (await purposeKnown(db, tenantId, purpose)) return;
  throw new DomainError('VALIDATION_ERROR', `purpose ${purpose} is not defined`, {
    errors: [{ field: 'purpose', message: 'must be a purpose defined with POST /api/v1/purposes, or a policy type' }],
  });
}

/** A purpose as the API shows it. */
export type PurposeView = Omit<KnownPurpose, 'status'>;

const view = ({ status: _status, ...rest }: KnownPurpose): PurposeView => rest;

const rowView = (r: PurposeRow): PurposeView => ({
  key: r.key,
  name: r.name,
  description: r.description,
  legalBasis: r.legal_basis as PurposeView['legalBasis'],
  consentValidFor: r.consent_valid_for,
  dpv: r.dpv,
  createdAt: new Date(r.created_at).toISOString(),
  updatedAt: new Date(r.updated_at).toISOString(),
});

/**
 * A tenant's purposes: define (once per key), change, read one (its ledger stream), list (the
 * read model, after the read fence). Each change is a ledger event in the tenant's log.
 *
 * @example
 * await purposes.define(tenantId, { key: 'newsletter', name: 'Newsletter', description: '…', legalBasis: 'consent', consentValidFor: 'P24M', dpv: 'dpv:Marketing' });
 */
export class Purposes {
  constructor(
    private readonly commands: CommandHandler,
    private readonly ledger: Ledger,
    private readonly db: Kysely<Database>,
    private readonly fence: ReadFence,
  ) {}

  /** Defines a purpose; PURPOSE_EXISTS when its key was defined before. */
  define(tenantId: string, input: PurposeFields & { key: string }): Promise<PurposeView> {
    return this.commands.run(tenantId, async (attempt) => {
      const purpose = await attempt.create(purposeAggregate, purposeStream(tenantId, input.key));
      const events = decidePurpose({ type: 'DefinePurpose', data: { ...input, now: attempt.now.toISOString() } }, purpose.state);
      const defined = events.reduce(purposeAggregate.evolve, purpose.state);
      if (defined.status === 'none') throw new Error('defining decided no purpose');
      return { writes: [write(purpose, events)], answer: () => view(defined) };
    });
  }

  /** Changes the fields given; NOT_FOUND for a key never defined. */
  async change(tenantId: string, key: string, changes: Partial<PurposeFields>): Promise<PurposeView> {
    const { state } = await this.commands.handle(tenantId, purposeAggregate, purposeStream(tenantId, key), (s, now) =>
      decidePurpose({ type: 'ChangePurpose', data: { ...changes, now } }, s),
    );
    if (state.status === 'none') throw new DomainError('NOT_FOUND', 'purpose not found');
    return view(state);
  }

  async get(tenantId: string, key: string): Promise<PurposeView> {
    const state = fold(purposeAggregate, await this.ledger.readStream(purposeStream(tenantId, key)));
    if (state.status === 'none') throw new DomainError('NOT_FOUND', 'purpose not found');
    return view(state);
  }

  async list(tenantId: string, page: number, limit: number): Promise<{ items: PurposeView[]; total: number }> {
    await this.fence(tenantId);
    const { items, total } = await listPurposes(this.db, tenantId, page, limit);
    return { items: items.map(rowView), total };
  }
}
