import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openHarness,
  policyTypes,
  published,
  raceRunners,
  recorded,
  rowsOf,
  snapshotReadModels,
  withdrawn,
  type PlainConsentRecorded,
  type ProjectionHarness,
  harnessEngines,
} from '../../test/support/projections.js';
import { reportEventStoreSkip } from '../../test/support/eventstore.js';
import type { ConsentFilter } from '../consents/consents.queries.js';
import { consentStats, dailyCounts, versionCounts, type ConsentStats } from './consent-counts.queries.js';
import { prng } from '../../test/support/prng.js';

const DAY = 86_400_000;
/** The read time of the random stats: expiries fall on both sides of it. */
const NOW = Date.UTC(2024, 2, 12, 12);

interface Row {
  at: number;
  policyType: string;
  /** Its version's purpose: its type, or one of the tenant's own. */
  purpose: string;
  consentGiven: boolean;
  userReference: string;
  /** The keyed hash read models filter by. */
  subject: string;
  /** As marked in the ledger: expired by a ConsentExpired event. */
  status: 'active' | 'withdrawn' | 'expired';
  tags: string[];
  expiresAt: number | null;
}

/** Stats the plain way: filter the records, count them. */
function countPlainly(rows: Row[], f: ConsentFilter): ConsentStats {
  const now = f.now?.getTime() ?? Date.now();
  const past = (r: Row) => r.expiresAt !== null && r.expiresAt <= now;
  const statusOf = (r: Row) => (r.status === 'withdrawn' ? 'withdrawn' : past(r) ? 'expired' : 'active');
  const hit = rows.filter(
    (r) =>
      (f.subject === undefined || r.subject === f.subject) &&
      (f.policyType === undefined || r.policyType === f.policyType) &&
      (f.purpose === undefined || r.purpose === f.purpose) &&
      (f.consentGiven === undefined || r.consentGiven === f.consentGiven) &&
      (f.status === undefined || statusOf(r) === f.status) &&
      (f.metadataTags ?? []).every((t) => r.tags.includes(t)) &&
      (f.from === undefined || r.at >= f.from.getTime()) &&
      (f.before === undefined || r.at < f.before.getTime()),
  );
  const accepted = hit.filter((r) => r.consentGiven).length;
  const byType = new Map<string, number>();
  for (const r of hit) byType.set(r.policyType, (byType.get(r.policyType) ?? 0) + 1);
  const byPurpose = new Map<string, number>();
  for (const r of hit) byPurpose.set(r.purpose, (byPurpose.get(r.purpose) ?? 0) + 1);
  const total = hit.length;
  return {
    totalConsents: total,
    acceptedConsents: accepted,
    rejectedConsents: total - accepted,
    // Exact: round half up of accepted / total × 100 to one decimal, in integers.
    acceptanceRate: total === 0 ? 0 : Math.floor((2000 * accepted + total) / (2 * total)) / 10,
    consentsByPolicy: [...byType]
      .map(([policyType, count]) => ({ policyType, count }))
      .sort((a, b) => b.count - a.count || a.policyType.localeCompare(b.policyType)),
    // Only when a record's purpose is not its type.
    ...(hit.some((r) => r.purpose !== r.policyType)
      ? {
          consentsByPurpose: [...byPurpose]
            .map(([purpose, count]) => ({ purpose, count }))
            .sort((a, b) => b.count - a.count || a.purpose.localeCompare(b.purpose)),
        }
      : {}),
  };
}

reportEventStoreSkip('projections');

describe.each(harnessEngines)('consent_counts projection ($name)', ({ open, ledger }) => {
  let h: ProjectionHarness;
  beforeAll(async () => {
    h = await openHarness(open, ledger);
  });
  afterAll(() => h?.dispose());

  /**
   * A tenant's counters of every record (tag ''), by day, type and decision, whatever their status
   * (each test's types have one version, of their own purpose).
   */
  const countersOf = async (tenantId: string) => {
    const sums = new Map<string, { day: string; policy_type: string; consent_given: boolean; count: number }>();
    for (const r of (await rowsOf(h.db, 'read.consent_counts')).filter((x) => x.tenant_id === tenantId && x.tag === '')) {
      const key = `${r.day}${r.policy_type}${r.consent_given}`;
      const sum = sums.get(key) ?? {
        day: r.day as string,
        policy_type: r.policy_type as string,
        consent_given: r.consent_given as boolean,
        count: 0,
      };
      sum.count += Number(r.count);
      sums.set(key, sum);
    }
    return [...sums.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, v]) => v);
  };

  describe('consent_counts › when decisions are recorded around midnight UTC', () => {
    it('counts each decision once on its UTC day, per policy type and decision', async () => {
      const tenant = randomUUID();
      const privacy = published();
      const cookies = published({ policyType: 'cookie_policy' });
      await h.append(tenant, [privacy, cookies]);
      await h.append(tenant, [
        recorded(privacy, { timestamp: '2024-03-01T23:59:59.999Z' }),
        recorded(privacy, { timestamp: '2024-03-02T00:00:00.000Z' }),
        recorded(privacy, { timestamp: '2024-03-02T12:00:00.000Z' }),
        recorded(privacy, { timestamp: '2024-03-02T13:00:00.000Z', consentGiven: false }),
        recorded(cookies, { timestamp: '2024-03-02T14:00:00.000Z' }),
        // An offset other than Z: the UTC day is the 2nd, not the 3rd its text starts with.
        recorded(cookies, { timestamp: '2024-03-03T01:30:00.000+02:00' }),
      ]);
      await h.runner().catchUp();
      expect(await countersOf(tenant)).toEqual([
        { day: '2024-03-01', policy_type: 'privacy_policy', consent_given: true, count: 1 },
        { day: '2024-03-02', policy_type: 'cookie_policy', consent_given: true, count: 2 },
        { day: '2024-03-02', policy_type: 'privacy_policy', consent_given: false, count: 1 },
        { day: '2024-03-02', policy_type: 'privacy_policy', consent_given: true, count: 2 },
      ]);
      // Each counter names the purpose and the version too, for stats filtered by them.
      const rows = (await rowsOf(h.db, 'read.consent_counts')).filter((r) => r.tenant_id === tenant && r.policy_type === 'cookie_policy');
      expect(rows.map((r) => [r.purpose, r.policy_version_id, r.status, r.tag])).toEqual([
        ['cookie_policy', cookies.data.policyVersionId, 'active', ''],
      ]);
    });
  });

  describe('consent_counts › when a record is withdrawn', () => {
    it('keeps counting the decision (stats count decisions recorded)', async () => {
      const tenant = randomUUID();
      const policy = published();
      const c = recorded(policy, { timestamp: '2024-03-05T10:00:00.000Z' });
      await h.append(tenant, [policy, c]);
      await h.append(tenant, [withdrawn(c.data.consentId, '2024-03-06T10:00:00.000Z')]);
      await h.runner().catchUp();
      expect(await countersOf(tenant)).toEqual([{ day: '2024-03-05', policy_type: 'privacy_policy', consent_given: true, count: 1 }]);
    });
  });

  describe('consent_counts › when the same events are delivered twice', () => {
    it('never counts a decision twice, whether a runner runs again or runners race over the same batch', async () => {
      const tenant = randomUUID();
      const policy = published();
      const cs = Array.from({ length: 40 }, (_, i) =>
        recorded(policy, { userReference: `u${i}`, consentGiven: i % 4 !== 0, timestamp: `2024-03-1${i % 2}T10:00:00.000Z` }),
      );
      await h.append(tenant, [policy, ...cs.slice(0, 15)]);
      await h.append(tenant, cs.slice(15));
      await raceRunners(h, [7, 500, 13]);
      const expected = [
        { day: '2024-03-10', policy_type: 'privacy_policy', consent_given: false, count: 10 },
        { day: '2024-03-10', policy_type: 'privacy_policy', consent_given: true, count: 10 },
        { day: '2024-03-11', policy_type: 'privacy_policy', consent_given: true, count: 20 },
      ];
      expect(await countersOf(tenant)).toEqual(expected);
      const once = await snapshotReadModels(h.db);

      const again = h.runner();
      expect(await again.runOnce()).toBe(0);
      expect(await again.catchUp()).toBe(0);
      await raceRunners(h, [1, 2]);
      expect(await snapshotReadModels(h.db)).toEqual(once);
    });

    it('never counts twice when runners race without waiting for each other, in small batches', async () => {
      const tenant = randomUUID();
      const policy = published();
      await h.append(tenant, [policy]);
      for (let i = 0; i < 5; i++) {
        await h.append(
          tenant,
          Array.from({ length: 6 }, (_, j) => recorded(policy, { userReference: `r${i}-${j}`, timestamp: '2024-03-12T10:00:00.000Z' })),
        );
      }
      await Promise.all([h.runner({ batchSize: 2 }).catchUp(), h.runner({ batchSize: 3 }).catchUp(), h.runner({ batchSize: 5 }).catchUp()]);
      expect(await countersOf(tenant)).toEqual([{ day: '2024-03-12', policy_type: 'privacy_policy', consent_given: true, count: 30 }]);
    });
  });

  describe('consent_counts › stats over the counters', () => {
    it('equal a plain count of the records for random filter combinations and time ranges', async () => {
      const seed = Number(process.env.STATS_SEED ?? Date.now() % 1_000_000);
      const random = prng(seed);
      const tenant = randomUUID();
      // Three types, each its own purpose, and two purposes of the type custom.
      const policies = [
        ...policyTypes.slice(0, 3).map((policyType) => published({ policyType })),
        published({ policyType: 'custom', purpose: 'newsletter' }),
        published({ policyType: 'custom', purpose: 'sms' }),
      ];
      await h.append(tenant, policies);
      const start = Date.UTC(2024, 2, 10);
      const users = ['ann', 'bob', 'cid', 'dee'];
      const rows: Row[] = [];
      const events: PlainConsentRecorded[] = [];
      for (let i = 0; i < 240; i++) {
        // Five days, with some records exactly on midnight and at the last millisecond of a day.
        const day = Math.floor(random() * 5);
        const r = random();
        const offset = r < 0.08 ? 0 : r < 0.16 ? DAY - 1 : Math.floor(random() * DAY);
        const at = start + day * DAY + offset;
        const policy = policies[Math.floor(random() * policies.length)]!;
        const consentGiven = random() < 0.7;
        const userReference = users[Math.floor(random() * users.length)]!;
        const tags = ['x', 'y'].filter(() => random() < 0.5);
        // A third of the consents given expire, around the read time NOW (some before, some after).
        let expiresAt = consentGiven && random() < 0.33 ? NOW + Math.floor((random() - 0.5) * 4 * DAY) : null;
        // Some are past their expiry when recorded (imported history, expired from their record on),
        // always before the read time NOW, as any record a reader sees.
        if (expiresAt !== null && expiresAt <= at && at > NOW) expiresAt = at + DAY;
        const row: Row = {
          at,
          policyType: policy.data.policyType,
          purpose: policy.data.purpose ?? policy.data.policyType,
          consentGiven,
          userReference,
          subject: h.subject(tenant, userReference),
          status: 'active',
          tags,
          expiresAt,
        };
        rows.push(row);
        events.push(
          recorded(policy, {
            timestamp: new Date(at).toISOString(),
            consentGiven: row.consentGiven,
            userReference: row.userReference,
            ...(tags.length > 0 ? { metadataTags: tags } : {}),
            ...(expiresAt !== null ? { expiresAt: new Date(expiresAt).toISOString() } : {}),
          }),
        );
      }
      await h.append(tenant, events.slice(0, 120));
      await h.append(tenant, events.slice(120));
      const toWithdraw = rows.flatMap((r, i) => (r.consentGiven && i % 5 === 0 ? [i] : []));
      await h.append(
        tenant,
        toWithdraw.map((i) => withdrawn(events[i]!.data.consentId, '2024-03-20T00:00:00.000Z')),
      );
      for (const i of toWithdraw) rows[i]!.status = 'withdrawn';
      // Half the consents past their expiry are marked, as the deadlines follower would; the others are not yet.
      const toExpire = rows.flatMap((r, i) =>
        r.status === 'active' && r.expiresAt !== null && r.expiresAt <= NOW && i % 2 === 0 ? [i] : [],
      );
      await h.append(
        tenant,
        toExpire.map((i) => ({
          type: 'ConsentExpired' as const,
          data: { consentId: events[i]!.data.consentId, subject: rows[i]!.subject, expiredAt: new Date(rows[i]!.expiresAt!).toISOString() },
        })),
      );
      for (const i of toExpire) rows[i]!.status = 'expired';
      // And one subject is erased: its records lose their tags, and stop matching tag filters.
      await h.append(tenant, [await h.erase(tenant, 'dee')]);
      for (const r of rows) if (r.userReference === 'dee') r.tags = [];
      await h.runner().catchUp();

      const instant = (): Date | undefined => {
        const kind = random();
        const day = start + Math.floor(random() * 7 - 1) * DAY;
        if (kind < 0.15) return undefined;
        if (kind < 0.35) return new Date(day); // midnight: whole days only
        if (kind < 0.45) return new Date(day + DAY - 1);
        if (kind < 0.55) return new Date(rows[Math.floor(random() * rows.length)]!.at); // exactly on a record
        return new Date(day + Math.floor(random() * DAY));
      };
      const pick = <T>(values: T[]): T | undefined => (random() < 0.6 ? undefined : values[Math.floor(random() * values.length)]);
      for (let i = 0; i < 300; i++) {
        let from = instant();
        let before = instant();
        if (i % 4 === 0 && from) before = new Date(from.getTime() + Math.floor(random() * DAY)); // inside a day or across one boundary
        if (i % 10 === 0) [from, before] = [before, from];
        const filter: ConsentFilter = {
          from,
          before,
          policyType: pick([...policyTypes.slice(0, 4), 'custom' as const]),
          purpose: i % 5 === 2 ? pick(['newsletter', 'sms', 'privacy_policy']) : undefined,
          consentGiven: pick([true, false]),
          subject: i % 3 === 0 ? pick(users.map((u) => h.subject(tenant, u))) : undefined,
          status: i % 2 === 0 ? pick(['active', 'withdrawn', 'expired'] as const) : undefined,
          metadataTags: i % 3 === 1 ? pick([['x'], ['y'], ['x', 'y']]) : undefined,
          now: new Date(NOW),
        };
        const got = await consentStats(h.db, tenant, filter);
        expect(got, `seed ${seed}, case ${i}: ${JSON.stringify(filter)}`).toEqual(countPlainly(rows, filter));
      }
      expect((await consentStats(h.db, tenant, {})).totalConsents).toBe(240);

      // The chart's days and each version's tallies say what the records stand at at NOW too,
      // expiries not yet marked included.
      const standing = (r: Row) =>
        r.status === 'withdrawn'
          ? 'withdrawn'
          : r.status === 'expired' || (r.expiresAt !== null && r.expiresAt <= NOW)
            ? 'expired'
            : r.consentGiven
              ? 'given'
              : 'rejected';
      const zero = () => ({ given: 0, rejected: 0, withdrawn: 0, expired: 0 });
      const plainDays = new Map<string, ReturnType<typeof zero>>();
      for (let d = 0; d < 5; d++) plainDays.set(new Date(start + d * DAY).toISOString().slice(0, 10), zero());
      rows.forEach((r) => plainDays.get(new Date(r.at).toISOString().slice(0, 10))![standing(r)]++);
      const days = await dailyCounts(h.db, tenant, { from: '2024-03-10', to: '2024-03-14', now: new Date(NOW) });
      expect(days, `seed ${seed}`).toEqual([...plainDays].map(([day, t]) => ({ day, ...t })));
      const plainVersions = new Map<string, ReturnType<typeof zero>>();
      rows.forEach((r, i) => {
        const id = events[i]!.data.policyVersionId;
        plainVersions.set(id, plainVersions.get(id) ?? zero());
        plainVersions.get(id)![standing(r)]++;
      });
      const versions = await versionCounts(h.db, tenant, new Date(NOW));
      expect(
        Object.fromEntries(
          versions.map((v) => [v.policyVersionId, { given: v.given, rejected: v.rejected, withdrawn: v.withdrawn, expired: v.expired }]),
        ),
        `seed ${seed}`,
      ).toEqual(Object.fromEntries(policies.map((p) => [p.data.policyVersionId, plainVersions.get(p.data.policyVersionId) ?? zero()])));
    });

    it('rounds the acceptance rate half up to one decimal, even where the quotient is inexact (201 of 400 = 50.3)', async () => {
      const tenant = randomUUID();
      const policy = published();
      await h.append(tenant, [policy]);
      await h.append(
        tenant,
        Array.from({ length: 400 }, (_, i) =>
          recorded(policy, { consentGiven: i < 201, userReference: `x${i}`, timestamp: '2024-03-15T10:00:00.000Z' }),
        ),
      );
      await h.runner().catchUp();
      expect(await consentStats(h.db, tenant, {})).toEqual({
        totalConsents: 400,
        acceptedConsents: 201,
        rejectedConsents: 199,
        acceptanceRate: 50.3,
        consentsByPolicy: [{ policyType: 'privacy_policy', count: 400 }],
      });
      expect(await consentStats(h.db, randomUUID(), {})).toEqual({
        totalConsents: 0,
        acceptedConsents: 0,
        rejectedConsents: 0,
        acceptanceRate: 0,
        consentsByPolicy: [],
      });
    });
  });
});
