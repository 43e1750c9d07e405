import { writeFileSync } from 'node:fs';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { runTempDir, waitUntil } from './process.js';

export interface TestCertificate {
  key: string;
  cert: string;
  /** A file holding `cert`, for NODE_EXTRA_CA_CERTS. */
  caFile: string;
}

/** A host name the certificate also covers, for tests whose resolver answers what a rebinding DNS would. */
export const REBIND_HOST = 'hooks.rebind.test';

let certificate: Promise<TestCertificate> | undefined;

/**
 * A self-signed certificate for localhost, REBIND_HOST, 127.0.0.1 and ::1, made once per test process. It is its
 * own CA: trust it with NODE_EXTRA_CA_CERTS (a spawned service) or the client's `ca` (in process).
 */
export function testCertificate(): Promise<TestCertificate> {
  certificate ??= (async () => {
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      notAfterDate: new Date(Date.now() + 24 * 3600 * 1000),
      extensions: [
        { name: 'basicConstraints', cA: true, critical: true },
        { name: 'keyUsage', digitalSignature: true, keyCertSign: true, critical: true },
        { name: 'extKeyUsage', serverAuth: true },
        {
          name: 'subjectAltName',
          altNames: [
            { type: 2, value: 'localhost' },
            { type: 2, value: REBIND_HOST },
            { type: 7, ip: '127.0.0.1' },
            { type: 7, ip: '::1' },
          ],
        },
      ],
    });
    const caFile = join(runTempDir('cl-webhook-ca-'), 'ca.pem');
    writeFileSync(caFile, pems.cert);
    return { key: pems.private, cert: pems.cert, caFile };
  })();
  return certificate;
}

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
  /** Date.now() when the request arrived. */
  at: number;
  path: string;
}

/** How the receiver answers one request: a status, a status with headers, hang (never answer) or reset the connection. */
export type Answer = number | { status: number; headers?: Record<string, string>; body?: string } | 'hang' | 'reset';

export interface Receiver {
  /** `https://127.0.0.1:<port>/hook` */
  url: string;
  port: number;
  received: Received[];
  /** Requests that arrived and were never answered (hang). */
  hanging(): number;
  /** What to answer; a promise to answer once it settles (the request waits meanwhile). */
  answer: (r: Received, n: number) => Answer | Promise<Answer>;
  /** Waits until `predicate(received)` holds. */
  waitFor(predicate: (received: Received[]) => boolean, what: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** A real HTTPS server on loopback that records every request and answers as told. */
export async function startReceiver(answer: Receiver['answer'] = () => 200): Promise<Receiver> {
  const { key, cert } = await testCertificate();
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  let hanging = 0;
  const receiver: Receiver = {
    url: '',
    port: 0,
    received,
    hanging: () => hanging,
    answer,
    waitFor: (predicate, what, timeoutMs = 30_000) =>
      waitUntil(() => predicate(received), { timeoutMs, what, intervalMs: 20 }).then(() => undefined),
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer({ key, cert }, (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const r: Received = { headers: request.headers, body, json, at: Date.now(), path: request.url ?? '' };
      received.push(r);
      void Promise.resolve(receiver.answer(r, received.length)).then((a) => {
        if (a === 'hang') {
          hanging += 1;
          return;
        }
        if (a === 'reset') return request.socket.destroy();
        const { status, headers = {}, body: out = '' } = typeof a === 'number' ? { status: a } : a;
        response.writeHead(status, headers).end(out);
      });
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  receiver.port = typeof address === 'object' && address ? address.port : 0;
  receiver.url = `https://127.0.0.1:${receiver.port}/hook`;
  return receiver;
}
