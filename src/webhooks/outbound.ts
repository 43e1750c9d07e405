import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** Address ranges a delivery may not reach unless the operator allows private networks. */
const RANGES: [string, [string, number, 'ipv4' | 'ipv6'][]][] = [
  [
    'unspecified',
    [
      ['0.0.0.0', 8, 'ipv4'],
      ['::', 128, 'ipv6'],
    ],
  ],
  [
    'loopback',
    [
      ['127.0.0.0', 8, 'ipv4'],
      ['::1', 128, 'ipv6'],
    ],
  ],
  [
    'private',
    [
      ['10.0.0.0', 8, 'ipv4'],
      ['172.16.0.0', 12, 'ipv4'],
      ['192.168.0.0', 16, 'ipv4'],
      ['100.64.0.0', 10, 'ipv4'],
    ],
  ],
  [
    'link-local',
    [
      ['169.254.0.0', 16, 'ipv4'],
      ['fe80::', 10, 'ipv6'],
    ],
  ],
  [
    'unique-local',
    [
      ['fc00::', 7, 'ipv6'],
      ['fec0::', 10, 'ipv6'],
    ],
  ],
  [
    'IPv4-mapped',
    [
      ['::ffff:0:0', 96, 'ipv6'],
      ['::', 96, 'ipv6'],
    ],
  ],
  // NAT64 and 6to4 embed an IPv4 address that may be a private one.
  [
    'IPv4-embedding',
    [
      ['64:ff9b::', 96, 'ipv6'],
      ['64:ff9b:1::', 48, 'ipv6'],
      ['2002::', 16, 'ipv6'],
    ],
  ],
  [
    'multicast',
    [
      ['224.0.0.0', 4, 'ipv4'],
      ['ff00::', 8, 'ipv6'],
    ],
  ],
  [
    'reserved',
    [
      ['192.0.0.0', 24, 'ipv4'],
      ['192.0.2.0', 24, 'ipv4'],
      ['198.18.0.0', 15, 'ipv4'],
      ['198.51.100.0', 24, 'ipv4'],
      ['203.0.113.0', 24, 'ipv4'],
      ['240.0.0.0', 4, 'ipv4'],
      ['192.88.99.0', 24, 'ipv4'],
      ['100::', 64, 'ipv6'],
      ['2001:db8::', 32, 'ipv6'],
      ['3fff::', 20, 'ipv6'],
      ['2001::', 23, 'ipv6'],
    ],
  ],
];
/** IPv6's global unicast space: an address outside it (IPv4-translated ::ffff:0:0:0/96, and what is not assigned yet) is not public. */
const GLOBAL_UNICAST = new BlockList();
GLOBAL_UNICAST.addSubnet('2000::', 3, 'ipv6');
// One list per family: Node's BlockList also matches an IPv4 address against IPv4-mapped IPv6
// rules (and the reverse), which would blur the reasons.
const BLOCKS = RANGES.map(([name, ranges]) => {
  const lists = { ipv4: new BlockList(), ipv6: new BlockList() };
  for (const [net, prefix, family] of ranges) lists[family].addSubnet(net, prefix, family);
  return { name, lists };
});

/**
 * Why an address is not public (`loopback`, `private`, `link-local`, …), or null when it is.
 *
 * @example
 * nonPublicReason('::ffff:127.0.0.1') // 'IPv4-mapped'
 * nonPublicReason('93.184.216.34')    // null
 */
export function nonPublicReason(address: string): string | null {
  const family = isIP(address);
  if (family === 0) return 'not an IP address';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const { name, lists } of BLOCKS) if (lists[type].check(address, type)) return name;
  if (type === 'ipv6' && !GLOBAL_UNICAST.check(address, 'ipv6')) return 'reserved';
  return null;
}

/**
 * Why a URL's host, as written, is not a public destination: an IP literal in a non-public range
 * (after WHATWG normalisation, so `2130706433`, `0x7f.1` and `[::ffff:7f00:1]` are 127.0.0.1), or
 * `localhost` and its subdomains, loopback by definition (RFC 6761). Null for a public literal or
 * any other name, which is checked when it is resolved, at connect time.
 *
 * @example
 * literalRefusal(new URL('https://[::1]/hook'))       // 'loopback'
 * literalRefusal(new URL('https://hooks.example.com')) // null
 */
export function literalRefusal(url: URL): string | null {
  const host = url.hostname
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  return isIP(host) ? nonPublicReason(host) : null;
}

/** Words for a failed connection, by error code: never the message, which names addresses and ports. */
const CONNECTION_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved now',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  EPIPE: 'the connection was closed while sending',
};
const connectionError = (error: NodeJS.ErrnoException): string => {
  const code = error.code ?? 'ERROR';
  if (CONNECTION_ERRORS[code]) return `${code}: ${CONNECTION_ERRORS[code]}`;
  if (/CERT|TLS|SSL/.test(code)) return `${code}: the receiver's TLS certificate was not accepted`;
  if (error.message === 'socket hang up') return 'ECONNRESET: the connection was closed before an answer (socket hang up)';
  return `${code}: the connection failed`;
};

/** What a delivery's history says of a destination refused at connect time: nothing of where the name led. */
export const NOT_PUBLIC = 'refused: the destination is not a public address';

/** Resolves a host name to every address (the production one is the system resolver). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );

export interface OutboundOptions {
  allowPrivateNetworks: boolean;
  allowHttp: boolean;
  /** Per attempt, from the start of the connection to the end of reading; 10 s. */
  timeoutMs?: number;
  /** How much of the response body is read at most; 4 KiB. */
  maxResponseBytes?: number;
  /** Host name resolution; tests pass one that answers a private address, as a rebinding DNS would. */
  resolver?: Resolver;
  /** More CA certificates to trust: tests only. The service trusts the system's and NODE_EXTRA_CA_CERTS. */
  ca?: string;
}

export interface OutboundResult {
  /** Null when no HTTP answer came (refused, unreachable, timed out). */
  statusCode: number | null;
  ok: boolean;
  responseTimeMs: number;
  error: string | null;
}

class Refused extends Error {}

/**
 * The one HTTP client that webhook deliveries use. HTTPS only (unless allowed), no redirects
 * followed, no connection reuse, and every address checked at connect time: the check sits in
 * the socket's own `lookup`, so a name that resolves to a public address when the webhook is
 * saved and to 127.0.0.1 when it is used (DNS rebinding) is still refused.
 *
 * @example
 * const client = new GuardedClient({ allowPrivateNetworks: false, allowHttp: false });
 * const r = await client.post('https://hooks.example.com/in', body, headers); // { ok, statusCode, responseTimeMs, error }
 */
export class GuardedClient {
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly resolver: Resolver;

  /**
   * Keep-alive agents: a receiver's connection (and its TLS session) is reused for the next
   * delivery instead of a new handshake each time. An address is checked when its connection is
   * made (`lookup`), and a reused connection goes to the address that was checked then. No limit
   * of sockets per host: the dispatcher bounds the attempts in flight, and a queue here would count
   * a wait behind another webhook's hanging requests to the same host against this one's time-out.
   */
  private readonly agents = {
    https: new https.Agent({ keepAlive: true }),
    http: new http.Agent({ keepAlive: true }),
  };

  constructor(private readonly options: OutboundOptions) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxResponseBytes = options.maxResponseBytes ?? 4096;
    this.resolver = options.resolver ?? systemResolver;
  }

  /** Why this address may not be reached, or null. */
  private refusal(address: string): string | null {
    if (this.options.allowPrivateNetworks) return null;
    const reason = nonPublicReason(address);
    return reason ? `refused: ${address} is not a public address (${reason})` : null;
  }

  private readonly lookup: LookupFunction = (hostname, options, callback) => {
    this.resolver(hostname).then(
      (addresses) => {
        const family = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = addresses.filter((a) => family === 0 || a.family === family);
        if (usable.length === 0) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
        // Every answer is checked, not only the first: a mixed answer is refused as a whole.
        // The refusal names neither the address nor its kind: a tenant could map internal names with it.
        for (const a of usable) {
          if (this.refusal(a.address)) return callback(Object.assign(new Refused(NOT_PUBLIC), { code: 'EREFUSED_ADDRESS' }), '', 0);
        }
        if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
        else callback(null, usable[0]!.address, usable[0]!.family);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };

  /** POSTs `body`; never throws. */
  async post(target: string, body: string, headers: Record<string, string>, signal?: AbortSignal): Promise<OutboundResult> {
    const started = performance.now();
    const done = (statusCode: number | null, error: string | null): OutboundResult => ({
      statusCode,
      ok: statusCode !== null && statusCode >= 200 && statusCode < 300,
      responseTimeMs: Math.round(performance.now() - started),
      error:
        error ??
        (statusCode !== null && (statusCode < 200 || statusCode >= 300)
          ? `HTTP ${statusCode}${statusCode >= 300 && statusCode < 400 ? ' (redirects are not followed)' : ''}`
          : null),
    });
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return done(null, 'refused: not a valid URL');
    }
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && this.options.allowHttp))
      return done(null, `refused: ${url.protocol}// is not allowed, only https://`);
    if (url.username || url.password) return done(null, 'refused: credentials in the URL');
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(host)) {
      const refused = this.refusal(host);
      if (refused) return done(null, refused);
    }
    return new Promise<OutboundResult>((resolve) => {
      let settled = false;
      let statusCode: number | null = null;
      // `keep`: the response was read to its end, so its connection may serve the next delivery;
      // any other ending (time-out, abort, a response too long to read) closes it.
      const finish = (error: string | null, keep = false) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (!keep) request.destroy();
        resolve(done(statusCode, error));
      };
      const onAbort = () => finish('aborted: the service is stopping');
      const requestOptions: https.RequestOptions = {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'consent-ledger-webhooks/1',
          'content-length': Buffer.byteLength(body),
          ...headers,
        },
        agent: url.protocol === 'https:' ? this.agents.https : this.agents.http,
        lookup: this.lookup,
        ...(this.options.ca ? { ca: this.options.ca } : {}),
      };
      const request = (url.protocol === 'https:' ? https : http).request(url, requestOptions);
      const timer = setTimeout(() => finish(statusCode === null ? `timed out after ${this.timeoutMs} ms` : null), this.timeoutMs);
      signal?.addEventListener('abort', onAbort);
      if (signal?.aborted) return onAbort();
      request.on('response', (response) => {
        statusCode = response.statusCode ?? null;
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= this.maxResponseBytes) finish(null);
        });
        response.on('end', () => finish(null, true));
        response.on('error', () => finish(null));
        response.on('close', () => finish(null));
      });
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (statusCode !== null) return finish(null);
        finish(error instanceof Refused ? error.message : connectionError(error));
      });
      request.end(body);
    });
  }
}
