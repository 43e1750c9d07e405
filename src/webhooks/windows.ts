import { sql } from 'kysely';
import { decodeConfigEvent } from '../domain/config/config.events.js';
import { comparePositions, type LedgerPosition, type RecordedEvent } from '../ledger/ledger.port.js';
import type { WebhooksDb } from './webhooks.table.js';

/**
 * A span of ledger positions in which a webhook was active, and the events it took then: events
 * after `from`, up to `until` (open while null). An inactive webhook keeps an empty window
 * (`until` = `from`) that remembers its events.
 */
export interface Window {
  webhookId: string;
  tenantId: string;
  from: LedgerPosition;
  until: LedgerPosition | null;
  events: string[];
}

/** What a webhook's own event changes: whether it is active, and the events it takes. */
export interface WindowChange {
  webhookId: string;
  /** Created (true unless said), re-activated (true), deactivated or deleted (false); absent: unchanged. */
  active?: boolean;
  events?: string[];
  deleted?: boolean;
}

/** A webhook's own event as a change of its windows; null for any other event. */
export function windowChange(event: RecordedEvent): WindowChange | null {
  if (event.type !== 'WebhookCreated' && event.type !== 'WebhookChanged' && event.type !== 'WebhookDeleted') return null;
  const e = decodeConfigEvent(event);
  switch (e?.type) {
    case 'WebhookCreated':
      return { webhookId: e.data.webhookId, active: e.data.isActive, events: e.data.events };
    case 'WebhookChanged':
      return {
        webhookId: e.data.webhookId,
        ...(e.data.isActive === undefined ? {} : { active: e.data.isActive }),
        ...(e.data.events === undefined ? {} : { events: e.data.events }),
      };
    case 'WebhookDeleted':
      return { webhookId: e.data.webhookId, active: false, deleted: true };
    default:
      return null;
  }
}

const after = (a: LedgerPosition, b: LedgerPosition) => comparePositions(a, b) > 0;

/**
 * The windows of the webhooks of some tenants, as the subscription has moved them so far, and
 * the moves of a batch: `apply` each event in ledger order, ask `at` where an event falls, `save`
 * in the batch's transaction. An event applied again (a batch read twice, a redelivered feed
 * event) changes nothing: only an event after a webhook's last window start moves its windows.
 */
export class WebhookWindows {
  private readonly added: Window[] = [];
  private readonly ended: Window[] = [];

  private constructor(private readonly byWebhook: Map<string, Window[]>) {}

  static async load(wdb: WebhooksDb, tenants: readonly string[]): Promise<WebhookWindows> {
    const byWebhook = new Map<string, Window[]>();
    if (tenants.length > 0) {
      const rows = await wdb
        .selectFrom('webhooks.windows')
        .selectAll()
        .where('tenant_id', 'in', tenants)
        .orderBy('from_commit')
        .orderBy('from_prepare')
        .execute();
      for (const r of rows) {
        const w: Window = {
          webhookId: r.webhook_id,
          tenantId: r.tenant_id,
          from: { commit: Number(r.from_commit), prepare: Number(r.from_prepare) },
          until: r.until_commit === null ? null : { commit: Number(r.until_commit), prepare: Number(r.until_prepare) },
          events: r.events,
        };
        byWebhook.set(w.webhookId, [...(byWebhook.get(w.webhookId) ?? []), w]);
      }
    }
    return new WebhookWindows(byWebhook);
  }

  /**
   * Moves the windows for one of the webhook's own events. Answers the webhook when its open
   * window ended for good or paused (deactivated, deleted), so that what was pending is cancelled.
   */
  apply(event: RecordedEvent): string | null {
    const change = windowChange(event);
    if (!change) return null;
    const windows = this.byWebhook.get(change.webhookId) ?? [];
    const last = windows.at(-1);
    if (last && !after(event.position, last.from)) return null;
    if (last?.until && !after(event.position, last.until)) return null;
    const open = last && last.until === null ? last : undefined;
    const wasActive = open !== undefined;
    const active = change.active ?? wasActive;
    const events = change.events ?? last?.events ?? [];
    if (open && (!active || change.events !== undefined)) {
      open.until = event.position;
      if (!this.added.includes(open)) this.ended.push(open);
    }
    // A new window: active from here (created, re-activated, or its events changed), or an empty
    // one remembering the events of an inactive webhook.
    if (!change.deleted && (active ? !wasActive || change.events !== undefined : change.events !== undefined || !last)) {
      const w: Window = {
        webhookId: change.webhookId,
        tenantId: event.tenantId,
        from: event.position,
        until: active ? null : event.position,
        events,
      };
      this.byWebhook.set(change.webhookId, [...windows, w]);
      this.added.push(w);
    }
    return wasActive && !active ? change.webhookId : null;
  }

  /** Where `position` falls for the webhook: in its open window, in a window since closed, or in none; with that window's events. */
  at(webhookId: string, position: LedgerPosition): { open: boolean; events: string[] } | null {
    for (const w of this.byWebhook.get(webhookId) ?? []) {
      if (!after(position, w.from)) continue;
      if (w.until === null) return { open: true, events: w.events };
      if (!after(position, w.until)) return { open: false, events: w.events };
    }
    return null;
  }

  /** The webhooks that have windows (any of which may take an event). */
  get webhooks(): string[] {
    return [...this.byWebhook.keys()];
  }

  /** The webhooks of one tenant that have windows. */
  webhooksOf(tenantId: string): string[] {
    return [...this.byWebhook.values()].filter((ws) => ws[0]!.tenantId === tenantId).map((ws) => ws[0]!.webhookId);
  }

  /** Writes the windows this batch added and ended. */
  async save(wdb: WebhooksDb): Promise<void> {
    for (const w of this.added) {
      await wdb
        .insertInto('webhooks.windows')
        .values({
          webhook_id: w.webhookId,
          tenant_id: w.tenantId,
          from_commit: w.from.commit,
          from_prepare: w.from.prepare,
          until_commit: w.until?.commit ?? null,
          until_prepare: w.until?.prepare ?? null,
          events: w.events,
        })
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    for (const w of this.ended) {
      await wdb
        .updateTable('webhooks.windows')
        .set({ until_commit: w.until!.commit, until_prepare: w.until!.prepare })
        .where('webhook_id', '=', w.webhookId)
        .where('from_commit', '=', w.from.commit)
        .where('from_prepare', '=', w.from.prepare)
        .where('until_commit', 'is', null)
        .execute();
    }
  }
}

/**
 * Tenants any of whose webhooks may take one of `events`: a window still open, or closed after
 * the first of them; and the tenants whose webhooks' own events are among them.
 */
export async function hookedTenants(wdb: WebhooksDb, events: readonly RecordedEvent[]): Promise<Set<string>> {
  const tenants = [...new Set(events.map((e) => e.tenantId))];
  if (tenants.length === 0) return new Set();
  const first = events[0]!.position;
  const rows = await wdb
    .selectFrom('webhooks.windows')
    .select('tenant_id')
    .distinct()
    .where('tenant_id', 'in', tenants)
    .where((eb) =>
      eb.or([
        eb('until_commit', 'is', null),
        sql<boolean>`(until_commit, until_prepare) >= (${first.commit}::bigint, ${first.prepare}::bigint)`,
      ]),
    )
    .execute();
  const hooked = new Set(rows.map((r) => r.tenant_id));
  for (const e of events) if (windowChange(e)) hooked.add(e.tenantId);
  return hooked;
}
