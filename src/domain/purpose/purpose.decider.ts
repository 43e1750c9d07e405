import { DomainError } from '../errors.js';
import type { Aggregate } from '../events.js';
import { dpvPurposeProblem } from './dpv-purposes.js';
import { decodePurposeEvent, isDuration, type PurposeEvent, type PurposeFields } from './purpose.events.js';

export type PurposeState = { status: 'none' } | (PurposeFields & { status: 'defined'; key: string; createdAt: string; updatedAt: string });

export type KnownPurpose = Exclude<PurposeState, { status: 'none' }>;

export type PurposeCommand =
  | { type: 'DefinePurpose'; data: PurposeFields & { key: string; now: string } }
  | { type: 'ChangePurpose'; data: Partial<PurposeFields> & { now: string } };

/** A purpose's stream folded. */
export const purposeAggregate: Aggregate<PurposeState, PurposeEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: (state, event) => evolvePurpose(state, event),
  decode: decodePurposeEvent,
};

export function evolvePurpose(state: PurposeState, event: PurposeEvent): PurposeState {
  switch (event.type) {
    case 'PurposeDefined': {
      const { at, ...fields } = event.data;
      return { status: 'defined', ...fields, createdAt: at, updatedAt: at };
    }
    case 'PurposeChanged': {
      if (state.status === 'none') return state;
      const { at, key: _key, ...changes } = event.data;
      return { ...state, ...changes, updatedAt: at };
    }
    default:
      return state;
  }
}

const FIELDS: readonly (keyof PurposeFields)[] = ['name', 'description', 'legalBasis', 'consentValidFor', 'dpv'];

/**
 * Decides what a purpose command records: a key is defined once (409 PURPOSE_EXISTS after); a
 * change records only the fields that differ, and nothing when none does. A validity that is no
 * duration, or a DPV term that names no DPV purpose, is refused (400).
 *
 * @example
 * decidePurpose({ type: 'ChangePurpose', data: { consentValidFor: 'P24M', now } }, defined) // [PurposeChanged]
 */
export function decidePurpose(command: PurposeCommand, state: PurposeState): PurposeEvent[] {
  const validFor = command.data.consentValidFor;
  if (validFor !== undefined && validFor !== null && !isDuration(validFor)) {
    throw new DomainError(
      'VALIDATION_ERROR',
      `consentValidFor must be an ISO 8601 duration longer than zero and at most 100 years, in whole units, such as P13M (got ${JSON.stringify(validFor)})`,
      {
        errors: [
          {
            field: 'consentValidFor',
            message: 'must be an ISO 8601 duration longer than zero and at most 100 years, in whole units, such as P13M',
          },
        ],
      },
    );
  }
  const dpvProblem = command.data.dpv ? dpvPurposeProblem(command.data.dpv) : undefined;
  if (dpvProblem !== undefined) {
    const message = dpvProblem.suggestion
      ? `must be a purpose of the W3C DPV: did you mean ${dpvProblem.suggestion}?`
      : 'must be a purpose of the W3C DPV, such as dpv:Marketing';
    throw new DomainError('VALIDATION_ERROR', `dpv: ${dpvProblem.problem}`, { errors: [{ field: 'dpv', message }] });
  }
  switch (command.type) {
    case 'DefinePurpose': {
      if (state.status !== 'none') {
        throw new DomainError('PURPOSE_EXISTS', `purpose ${command.data.key} is already defined; change it with PATCH`, {
          key: command.data.key,
        });
      }
      const { now, ...fields } = command.data;
      return [{ type: 'PurposeDefined', data: { ...fields, at: now } }];
    }
    case 'ChangePurpose': {
      if (state.status === 'none') throw new DomainError('NOT_FOUND', 'purpose not found');
      const changes: Partial<PurposeFields> = {};
      for (const field of FIELDS) {
        const value = command.data[field];
        if (value !== undefined && value !== state[field]) (changes as Record<string, unknown>)[field] = value;
      }
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'PurposeChanged', data: { ...changes, key: state.key, at: command.data.now } }];
    }
  }
}
