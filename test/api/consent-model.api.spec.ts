import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prng } from '../support/prng.js';
import { client, startTestService, verifyAgainstReplay, type Client, type TestService } from '../support/service.js';

/**
 * Issue 18's consent model against a reference model: a seeded run of random steps (versions
 * published with past or future effective dates, with or without re-consent, deactivated,
 * reactivated, deleted; validities changed; history imported by purpose with its original times
 * and withdrawals; decisions made now; withdrawals by purpose) over HTTP, each answer compared
 * with what docs/purposes.md says it must be: the user's status per purpose (which decision
 * stands, on which version, withdrawn, expired or outdated, the version in force), the
 * re-consent list, the records counted by status, and which writes are refused; at the end, its read
 * models against a replay of its ledger (`projections verify`). MODEL_SEED explores other runs.
 */

const SEED = Number(process.env.MODEL_SEED ?? 20261129);
const STEPS = Number(process.env.MODEL_STEPS ?? 160);
const PURPOSES = ['letters', 'offers'] as const;
const USERS = ['u0', 'u1', 'u2', 'u3', 'u4'];
const DAY = 86_400_000;
const PAST_FROM = Date.UTC(2020, 0, 1);
const PAST_TO = Date.UTC(2025, 11, 31);

interface Version {
  id: string;
  purpose: string;
  version: string;
  effective: number;
  requiresReconsent: boolean;
  validFor: string | null;
  active: boolean;
  deleted: boolean;
}
interface Decision {
  id: string;
  user: string;
  purpose: string;
  version: Version;
  given: boolean;
  /** collectedAt, or the time the service recorded it. */
  at: number;
  /** Order of the append, for decisions made at the same instant. */
  seq: number;
  expiresAt: number | null;
  withdrawn: boolean;
}

let t: TestService;
let api: Client;

beforeAll(async () => {
  t = await startTestService();
  api = client(t.app, await t.tenant('pro'));
}, 60_000);
afterAll(() => t?.close());

/** A validity added to a time on the UTC calendar (the only ones used: a day, a hundred years). */
const plus = (at: number, validFor: string | null): number | null =>
  validFor === null
    ? null
    : validFor === 'P1D'
      ? at + DAY
      : Date.UTC(new Date(at).getUTCFullYear() + 100, new Date(at).getUTCMonth(), new Date(at).getUTCDate()) + (at % DAY);

describe('the consent model › a seeded run against the reference model', () => {
  it(`agrees with it at every step (seed ${SEED})`, async () => {
    const random = prng(SEED);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const pastTime = () => PAST_FROM + Math.floor(random() * (PAST_TO - PAST_FROM));
    const versions: Version[] = [];
    const decisions: Decision[] = [];
    const validity = new Map<string, string | null>([
      ['letters', null],
      ['offers', 'P1D'],
    ]);
    let seq = 0;
    let minor = 0;
    const log: string[] = [];
    // Every status the checks compared, so that the run shows it reached each of them.
    const seen = new Set<string>();

    for (const key of PURPOSES) {
      const res = await api.post('/api/v1/purposes', {
        key,
        name: key,
        legalBasis: 'consent',
        ...(validity.get(key) ? { consentValidFor: validity.get(key) } : {}),
      });
      expect(res.statusCode, res.body).toBe(201);
    }

    // The reference model (docs/purposes.md).
    const order = (a: Version, b: Version) => a.effective - b.effective || compareVersions(a.version, b.version);
    const inForceNow = (purpose: string) =>
      versions
        .filter((v) => v.purpose === purpose && v.active && !v.deleted && v.effective <= Date.now())
        .sort(order)
        .at(-1);
    const inForceAt = (purpose: string, at: number) =>
      versions
        .filter((v) => v.purpose === purpose && !v.deleted && v.effective <= at)
        .sort(order)
        .at(-1);
    const standing = (user: string, purpose: string) =>
      decisions
        .filter((d) => d.user === user && d.purpose === purpose)
        .sort((a, b) => a.at - b.at || a.seq - b.seq)
        .at(-1);
    const outdated = (d: Decision) =>
      versions.some(
        (r) =>
          r.purpose === d.purpose && r.active && !r.deleted && r.effective <= Date.now() && r.requiresReconsent && order(r, d.version) > 0,
      );
    const expired = (d: Decision) => d.expiresAt !== null && d.expiresAt <= Date.now();
    const statusOf = (d: Decision | undefined) =>
      !d ? 'none' : d.withdrawn ? 'withdrawn' : expired(d) ? 'expired' : outdated(d) ? 'outdated' : d.given ? 'given' : 'rejected';

    const check = async (users: readonly string[], purposes: readonly string[]) => {
      for (const purpose of purposes) {
        for (const user of users) {
          const res = await api.get(`/api/v1/consent/user/${user}/status?purpose=${purpose}`);
          expect(res.statusCode, res.body).toBe(200);
          const [entry] = res.json().data.policies;
          const d = standing(user, purpose);
          const force = inForceNow(purpose);
          seen.add(statusOf(d));
          expect(
            {
              status: entry.status,
              consentId: entry.consentId,
              policyVersionId: entry.policyVersionId,
              inForce: entry.inForce?.policyVersionId ?? null,
            },
            `${user} on ${purpose} after:\n${log.slice(-12).join('\n')}`,
          ).toEqual({ status: statusOf(d), consentId: d?.id ?? null, policyVersionId: d?.version.id ?? null, inForce: force?.id ?? null });
        }
        // Every record of the purpose by its own status, as the statistics count them.
        for (const status of ['active', 'withdrawn', 'expired'] as const) {
          const stats = await api.get(`/api/v1/consent/stats?purpose=${purpose}&status=${status}`);
          expect(stats.statusCode, stats.body).toBe(200);
          const records = decisions.filter(
            (d) => d.purpose === purpose && (d.withdrawn ? 'withdrawn' : expired(d) ? 'expired' : 'active') === status,
          );
          expect(stats.json().data.totalConsents, `${status} records of ${purpose} after:\n${log.slice(-12).join('\n')}`).toBe(
            records.length,
          );
        }
        const listed = await api.get(`/api/v1/consent/reconsent?purpose=${purpose}&limit=100`);
        expect(listed.statusCode, listed.body).toBe(200);
        const expected = USERS.filter((u) => {
          const d = standing(u, purpose);
          return d !== undefined && !d.withdrawn && !expired(d) && outdated(d);
        });
        expect(
          (listed.json().data as { userReference: string }[]).map((r) => r.userReference).sort(),
          `re-consent list of ${purpose} after:\n${log.slice(-12).join('\n')}`,
        ).toEqual(expected);
      }
    };

    for (let step = 0; step < STEPS; step++) {
      const purpose = pick(PURPOSES);
      const user = pick(USERS);
      const roll = random();
      if (roll < 0.14 || versions.filter((v) => v.purpose === purpose).length === 0) {
        // Publish: mostly in the past (history's texts), sometimes in the future (not in force yet).
        const effective = random() < 0.85 ? pastTime() : Date.now() + 365 * DAY + Math.floor(random() * DAY);
        const requiresReconsent = random() < 0.6;
        const version = `1.${++minor}.0`;
        const res = await api.post('/api/v1/policies', {
          policyType: 'custom',
          purpose,
          version,
          title: `${purpose} ${version}`,
          content: `${purpose} ${version}`,
          effectiveDate: new Date(effective).toISOString(),
          requiresReconsent,
        });
        expect(res.statusCode, res.body).toBe(201);
        const v: Version = {
          id: res.json().data.id,
          purpose,
          version,
          effective,
          requiresReconsent,
          validFor: validity.get(purpose)!,
          active: true,
          deleted: false,
        };
        versions.push(v);
        log.push(`publish ${purpose} ${version} effective ${new Date(effective).toISOString()} reconsent ${requiresReconsent}`);
      } else if (roll < 0.2) {
        const next = pick(['P1D', 'P100Y'] as const);
        const res = await api.patch(`/api/v1/purposes/${purpose}`, { consentValidFor: next });
        expect(res.statusCode, res.body).toBe(200);
        validity.set(purpose, next);
        log.push(`validity of ${purpose} ${next}`);
      } else if (roll < 0.28) {
        const live = versions.filter((v) => v.purpose === purpose && !v.deleted);
        if (live.length === 0) continue;
        const v = pick(live);
        if (!v.active && random() < 0.3) {
          const res = await api.delete(`/api/v1/policies/${v.id}`);
          expect(res.statusCode, res.body).toBe(200);
          v.deleted = true;
          log.push(`delete ${purpose} ${v.version}`);
        } else {
          const res = await api.patch(`/api/v1/policies/${v.id}`, { isActive: !v.active });
          expect(res.statusCode, res.body).toBe(200);
          v.active = !v.active;
          log.push(`${v.active ? 'reactivate' : 'deactivate'} ${purpose} ${v.version}`);
        }
      } else if (roll < 0.6) {
        // History moved in: by purpose, at its original time, sometimes withdrawn there since; a
        // batch sometimes carries two of the user's decisions, in either order of time.
        const items = Array.from({ length: random() < 0.25 ? 2 : 1 }, () => {
          const at = pastTime();
          const given = random() < 0.7;
          const withdrawnAt = given && random() < 0.25 ? at + 1 + Math.floor(random() * 1000) : undefined;
          return { at, given, withdrawnAt, version: inForceAt(purpose, at) };
        });
        const res = await api.post('/api/v1/consent/batch', {
          consents: items.map((i) => ({
            purpose,
            userReference: user,
            consentGiven: i.given,
            collectedAt: new Date(i.at).toISOString(),
            ...(i.withdrawnAt ? { withdrawnAt: new Date(i.withdrawnAt).toISOString() } : {}),
          })),
        });
        log.push(
          `import ${user} ${purpose} ${items.map((i) => `${i.given} at ${new Date(i.at).toISOString()}${i.withdrawnAt ? ' withdrawn' : ''}`).join(', ')}: ${res.statusCode}`,
        );
        // All or nothing: one item with no version in force at its time refuses the batch.
        if (items.some((i) => !i.version)) {
          expect(res.statusCode, res.body).toBe(400);
          continue;
        }
        expect(res.statusCode, res.body).toBe(201);
        const made = res.json().data.consents as { id: string }[];
        items.forEach((i, n) =>
          decisions.push({
            id: made[n]!.id,
            user,
            purpose,
            version: i.version!,
            given: i.given,
            at: i.at,
            seq: ++seq,
            expiresAt: i.given ? plus(i.at, i.version!.validFor) : null,
            withdrawn: i.withdrawnAt !== undefined,
          }),
        );
      } else if (roll < 0.8) {
        const res = await api.post('/api/v1/consent', { purpose, userReference: user, consentGiven: random() < 0.7 });
        const version = inForceNow(purpose);
        log.push(`decide ${user} ${purpose} now: ${res.statusCode}`);
        if (!version) {
          expect(res.statusCode, res.body).toBe(404);
          continue;
        }
        expect(res.statusCode, res.body).toBe(201);
        const made = res.json().data as { id: string; timestamp: string; consentGiven: boolean; policyVersionId: string };
        const at = Date.parse(made.timestamp);
        decisions.push({
          id: made.id,
          user,
          purpose,
          version,
          given: made.consentGiven,
          at,
          seq: ++seq,
          expiresAt: made.consentGiven ? plus(at, version.validFor) : null,
          withdrawn: false,
        });
      } else {
        const res = await api.post(`/api/v1/consent/user/${user}/withdraw`, { purpose });
        const d = standing(user, purpose);
        const withdrawable = d !== undefined && d.given && !d.withdrawn && !expired(d);
        log.push(`withdraw ${user} ${purpose}: ${res.statusCode}`);
        expect(res.statusCode, res.body).toBe(withdrawable ? 200 : 409);
        if (withdrawable) {
          expect((res.json().data.withdrawn as { id: string }[]).map((r) => r.id)).toEqual([d.id]);
          d.withdrawn = true;
        }
      }
      await check([user], [purpose]);
    }
    await check(USERS, PURPOSES);
    // Its read models, written batch by batch as it went, are what one replay of its ledger gives.
    expect(await verifyAgainstReplay(t)).toMatchObject({ consistent: true, drift: [] });
    // The run did what it set out to: each outcome it compares came up (with the seed CI runs;
    // another seed may miss one).
    if (process.env.MODEL_SEED === undefined)
      expect([...seen].sort()).toEqual(['expired', 'given', 'none', 'outdated', 'rejected', 'withdrawn']);
  }, 180_000);
});

/** Versions `a.b.c` compared by number. */
function compareVersions(a: string, b: string): number {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}
