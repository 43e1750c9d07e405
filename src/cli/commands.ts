import { readFileSync } from 'node:fs';
import { UsageError, type Command, type Values } from './command.js';
import { isUuid } from '../common/ids.js';
import { isPlan, PLANS, type Plan } from '../tenants/plans.js';
import { isOrigin, KEY_SCOPES, type KeyScope } from '../tenants/key-scopes.js';
import type { NewKey } from '../tenants/tenants.service.js';
import { isDateTime } from '../common/dates.js';
import { userTokenKeyOf } from '../tenants/user-token.js';
import { masterKeyRotate, signingKeyRotate } from './keys.commands.js';
import { importCommand } from './import.commands.js';
import { subjectsErase } from './subjects.commands.js';
import { auditConsistency, auditExport, auditMonitor, auditProve, auditReceipt, auditVerify } from './audit.commands.js';
import { ledgerCopy } from './ledger.commands.js';
import { dbGrant } from './db.commands.js';
import { witnessServe } from './witness.commands.js';
import { backupCommand, restoreCommand } from './backup.commands.js';

/** `--user-token-key`: the key itself, or a PEM file of it; each wrong case said as such. */
function userTokenKeyArgument(value: string): string {
  const inline = userTokenKeyOf(value);
  if (inline !== null) return inline;
  let text: string;
  try {
    text = readFileSync(value, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === 'ENOENT'
        ? `--user-token-key: there is no file ${value}, nor is it a usable Ed25519 public key (its 32 bytes in hex, base64 or base64url)`
        : code === 'EISDIR'
          ? `--user-token-key: ${value} is a folder: give the public key's PEM file`
          : `--user-token-key: ${value} cannot be read (${code ?? 'unknown error'})`,
    );
  }
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text)) {
    throw new UsageError(
      `--user-token-key: ${value} holds a private key, which stays with your backend: give its public key (openssl pkey -in ${value} -pubout)`,
    );
  }
  const key = userTokenKeyOf(text);
  if (key === null) throw new UsageError(`--user-token-key: ${value} holds no usable Ed25519 public key (PEM, BEGIN PUBLIC KEY)`);
  return key;
}

const str = (values: Values, name: string): string | undefined => {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
};

const required = (values: Values, name: string): string => {
  const v = str(values, name);
  if (v === undefined) throw new UsageError(`--${name} is required`);
  return v;
};

const plan = (raw: string): Plan => {
  if (!isPlan(raw)) throw new UsageError(`--plan must be one of ${PLANS.join(', ')} (got "${raw}")`);
  return raw;
};

const tenantId = (raw: string, flag: string): string => {
  if (!isUuid(raw)) throw new UsageError(`--${flag} must be a tenant id (a UUID, as \`tenant list\` shows it)`);
  return raw.toLowerCase();
};

const MAX_LIMIT = 1_000_000_000;
/** A positive whole number of requests, or `default` to fall back to the plan's limit. */
const limit = (raw: string | undefined, flag: string): number | null | undefined => {
  if (raw === undefined) return undefined;
  if (raw === 'default') return null;
  if (!/^[1-9][0-9]{0,9}$/.test(raw) || Number(raw) > MAX_LIMIT) {
    throw new UsageError(`--${flag} must be a whole number from 1 to ${MAX_LIMIT}, or "default" for the plan's limit (got "${raw}")`);
  }
  return Number(raw);
};

const API_KEY = /^ck_[0-9A-Za-z]{24}$/;
const PUBLISHABLE_KEY = /^pk_[0-9A-Za-z]{24}$/;

const tenantCreate: Command = {
  name: 'tenant create',
  createsStore: true,
  usage: 'tenant create --name NAME --plan PLAN',
  summary: 'Create a tenant and its first API key; prints {tenantId, name, plan, apiKey, apiSecret}',
  options: { name: { type: 'string' }, plan: { type: 'string' } },
  parse(values) {
    const name = required(values, 'name').trim();
    if (name.length === 0 || name.length > 200 || name.includes('\0')) throw new UsageError('--name must be 1 to 200 characters');
    return { name, plan: plan(required(values, 'plan')) };
  },
  load: () => import('./commands.run.js').then((m) => m.tenantCreate),
};

const tenantList: Command = {
  name: 'tenant list',
  usage: 'tenant list',
  summary: 'List tenants, their limits and their keys (never a secret); prints {tenants: [...]}',
  options: {},
  parse: () => ({}),
  load: () => import('./commands.run.js').then((m) => m.tenantList),
};

const tenantSetPlan: Command = {
  name: 'tenant set-plan',
  usage: 'tenant set-plan --id TENANT_ID --plan PLAN [--per-minute N|default] [--per-day N|default]',
  summary: "Change a tenant's plan and/or its own rate limits; prints the tenant",
  options: { id: { type: 'string' }, plan: { type: 'string' }, 'per-minute': { type: 'string' }, 'per-day': { type: 'string' } },
  parse(values) {
    const id = tenantId(required(values, 'id'), 'id');
    const p = str(values, 'plan');
    const perMinute = limit(str(values, 'per-minute'), 'per-minute');
    const perDay = limit(str(values, 'per-day'), 'per-day');
    if (p === undefined && perMinute === undefined && perDay === undefined) {
      throw new UsageError('say what to change: --plan, --per-minute or --per-day');
    }
    const limits = {
      ...(perMinute === undefined ? {} : { perMinute }),
      ...(perDay === undefined ? {} : { perDay }),
    };
    return { id, change: { ...(p === undefined ? {} : { plan: plan(p) }), ...(Object.keys(limits).length ? { limits } : {}) } };
  },
  load: () => import('./commands.run.js').then((m) => m.tenantSetPlan),
};

const keyCreate: Command = {
  name: 'key create',
  usage:
    'key create --tenant TENANT_ID [--scope admin|write|read|publishable] [--name NAME] [--expires DATE-TIME] [--origin ORIGIN…] [--per-minute N] [--user-token-key KEY|FILE]',
  summary:
    'Issue another API key for a tenant (an admin key unless --scope says otherwise; a publishable one lists each --origin it may be used from and has no secret, and with --user-token-key, an Ed25519 public key or a PEM file of one, records only for the user a token signed by its private key names); prints {tenantId, name, plan, apiKey, apiSecret, scope, keyName, expiresAt}',
  options: {
    tenant: { type: 'string' },
    scope: { type: 'string' },
    name: { type: 'string' },
    expires: { type: 'string' },
    origin: { type: 'string', multiple: true },
    'per-minute': { type: 'string' },
    'user-token-key': { type: 'string' },
  },
  parse: (values) => {
    const scope = values.scope ?? 'admin';
    if (typeof scope !== 'string' || !(KEY_SCOPES as readonly string[]).includes(scope)) {
      throw new UsageError(`--scope must be one of ${KEY_SCOPES.join(', ')}`);
    }
    const name = values.name;
    if (name !== undefined && (typeof name !== 'string' || name.length < 1 || name.length > 100)) {
      throw new UsageError('--name must be 1 to 100 characters');
    }
    const expires = values.expires;
    if (expires !== undefined && (typeof expires !== 'string' || !isDateTime(expires) || Date.parse(expires) <= Date.now())) {
      throw new UsageError('--expires must be a date-time in the future, with a time zone (2027-01-31T00:00:00Z)');
    }
    const origins = (values as Record<string, unknown>).origin as string[] | undefined;
    const perMinute = str(values, 'per-minute');
    if (scope === 'publishable') {
      if (!origins || origins.length === 0)
        throw new UsageError('a publishable key needs at least one --origin (https://shop.example.com)');
      const bad = origins.find((o) => !isOrigin(o.toLowerCase()));
      if (bad !== undefined)
        throw new UsageError(
          `--origin must be an origin as browsers send it, like https://shop.example.com, with no path and no default port (got "${bad}")`,
        );
      if (perMinute !== undefined && (!/^[1-9][0-9]{0,5}$/.test(perMinute) || Number(perMinute) > 100_000)) {
        throw new UsageError('--per-minute must be a whole number from 1 to 100000');
      }
    } else if (origins !== undefined || perMinute !== undefined || values['user-token-key'] !== undefined) {
      throw new UsageError('--origin, --per-minute and --user-token-key are for --scope publishable only');
    }
    const userTokenKey = str(values, 'user-token-key');
    const tokenKey = userTokenKey === undefined ? undefined : userTokenKeyArgument(userTokenKey);
    const key: NewKey = {
      scope: scope as KeyScope,
      name: name ?? null,
      expiresAt: expires ?? null,
      ...(origins ? { origins } : {}),
      ...(perMinute !== undefined ? { perMinute: Number(perMinute) } : {}),
      ...(tokenKey !== undefined ? { userTokenKey: tokenKey } : {}),
    };
    return { tenant: tenantId(required(values, 'tenant'), 'tenant'), key };
  },
  load: () => import('./commands.run.js').then((m) => m.keyCreate),
};

const keyRevoke: Command = {
  name: 'key revoke',
  usage: 'key revoke --tenant TENANT_ID --key ck_...|pk_...',
  summary: 'Revoke an API key, or a publishable key; prints {revoked: true}',
  options: { tenant: { type: 'string' }, key: { type: 'string' } },
  parse(values) {
    const tenant = tenantId(required(values, 'tenant'), 'tenant');
    const key = required(values, 'key');
    // Every key `key create` issues: a secret key or a publishable one.
    if (!API_KEY.test(key) && !PUBLISHABLE_KEY.test(key)) {
      throw new UsageError('--key must be an API key: ck_ (or pk_ for a publishable key) followed by 24 letters and digits');
    }
    return { tenant, key };
  },
  load: () => import('./commands.run.js').then((m) => m.keyRevoke),
};

const projectionsRebuild: Command = {
  name: 'projections rebuild',
  usage: 'projections rebuild',
  summary: 'Drop the read models and replay the whole ledger into them; prints {events, seconds}',
  options: {},
  parse: () => ({}),
  load: () => import('./commands.run.js').then((m) => m.projectionsRebuild),
};

const projectionsVerify: Command = {
  name: 'projections verify',
  usage: 'projections verify',
  summary:
    'Replay the ledger into a scratch copy of the read models (in memory) and compare it row for row with the live ones; prints {consistent, events, tables, drift}, and exits 1 naming every row that differs (READ_MODEL_DRIFT), or saying why there is nothing to compare yet (READ_MODELS_NOT_READY: never built, as after `ledger copy`, or built by another version)',
  options: {},
  parse: () => ({}),
  load: () => import('./commands.run.js').then((m) => m.projectionsVerify),
};

export const COMMANDS: readonly Command[] = [
  tenantCreate,
  tenantList,
  tenantSetPlan,
  keyCreate,
  keyRevoke,
  projectionsRebuild,
  projectionsVerify,
  auditExport,
  auditVerify,
  auditProve,
  auditConsistency,
  auditMonitor,
  auditReceipt,
  masterKeyRotate,
  signingKeyRotate,
  subjectsErase,
  ledgerCopy,
  dbGrant,
  witnessServe,
  importCommand,
  backupCommand,
  restoreCommand,
];

export { UsageError, type CliIo, type Command } from './command.js';
