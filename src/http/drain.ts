import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

/**
 * Lets `app.close()` end once the requests in flight are answered. Node keeps a keep-alive
 * connection open after its response, and Fastify closes only the connections idle when close
 * begins: a client whose request was in flight then holds the server, and the exit, for the
 * keep-alive timeout (72 s). While draining, answers carry `Connection: close` and every
 * connection left idle is closed.
 *
 * @example
 * const drain = drainKeepAlive(app);
 * drain.start();
 * await app.close();
 */
export function drainKeepAlive(app: FastifyInstance): { start(): void } {
  let draining = false;
  const open = new Set<ServerResponse>();
  app.server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
    if (draining && !response.headersSent) response.setHeader('connection', 'close');
    open.add(response);
    response.once('close', () => {
      open.delete(response);
      if (draining) app.server.closeIdleConnections();
    });
  });
  return {
    start() {
      draining = true;
      for (const response of open) if (!response.headersSent) response.setHeader('connection', 'close');
    },
  };
}
