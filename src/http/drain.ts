import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

/**
 * Lets `app.close()` end once the requests in flight are answered. Node keeps a keep-alive
 * connection open after its response, and Fastify closes only the connections idle when close
 * begins: a client whose request was in flight then holds the server, and the exit, for the
 * keep-alive timeout (72 s). Once draining starts, answers carry `Connection: close`; once
 * closing starts, every connection left idle is closed. Between the two, a keep-alive client
 * still sending on its connection is answered (and told to leave it), not reset.
 *
 * @example
 * const drain = drainKeepAlive(app);
 * drain.start();
 * drain.closing();
 * await app.close();
 */
export function drainKeepAlive(app: FastifyInstance): { start(): void; closing(): void; draining(): boolean } {
  let draining = false;
  let closing = false;
  const open = new Set<ServerResponse>();
  app.server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
    if (draining && !response.headersSent) response.setHeader('connection', 'close');
    open.add(response);
    response.once('close', () => {
      open.delete(response);
      if (closing) app.server.closeIdleConnections();
    });
  });
  return {
    draining: () => draining,
    start() {
      draining = true;
      for (const response of open) if (!response.headersSent) response.setHeader('connection', 'close');
    },
    closing() {
      this.start();
      closing = true;
    },
  };
}
