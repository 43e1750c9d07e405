import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** How long, in all, a connection is kept open to drain a body after its answer (nginx's lingering_time). */
export const LINGER_MS = 30_000;
/** A client that sends nothing for this long has stopped: close (nginx's lingering_timeout). */
export const LINGER_IDLE_MS = 5_000;
/** The most a client may send after its answer before the connection is closed anyway. */
export const LINGER_BYTES = 128 * 1024 * 1024;

/**
 * A lingering close. An answer given before the request's body was read (a 413 from its
 * Content-Length or from the first 2 MiB, a 503 while draining) closes the connection; closing a
 * socket with unread bytes makes the kernel send a reset, and a client still sending (fetch,
 * curl, a slow uploader) then loses the answer it had not read yet. So such a connection only
 * half-closes once the answer is written (the client sees the end of it) and reads and discards
 * what still arrives, until the client closes, goes quiet, or passes the bounds above.
 */
export function registerLingeringClose(app: FastifyInstance): void {
  const lingering = new Set<Socket>();
  app.addHook('onSend', async (request, reply, payload) => {
    const socket = request.raw.socket as Socket | null;
    if (!socket || request.raw.complete) return payload;
    // Any answer given before its body arrived (a 401 or 429 before credentials let it be read):
    // the connection is closed, lingering, rather than kept to read the rest of a body that a
    // client may drip for ever.
    const headers = request.raw.headers;
    const bodyComing = Number(headers['content-length'] ?? 0) > 0 || headers['transfer-encoding'] !== undefined;
    if (bodyComing && !reply.raw.headersSent) void reply.header('connection', 'close');
    if (String(reply.getHeader('connection')).toLowerCase() === 'close') lingerAfterAnswer(socket, lingering);
    return payload;
  });
  // Stopping the service does not wait for a client's leftover body.
  app.addHook('onClose', async () => {
    for (const socket of lingering) socket.destroy();
  });
}

function lingerAfterAnswer(socket: Socket, lingering: Set<Socket>): void {
  // Node's HTTP server calls destroySoon() once a `Connection: close` answer is written; it would
  // destroy the socket at once. This one ends the sending side and drains instead.
  socket.destroySoon = function lingeringClose(this: Socket) {
    if (lingering.has(this)) return;
    lingering.add(this);
    let drained = 0;
    const close = () => {
      clearTimeout(deadline);
      clearTimeout(idle);
      lingering.delete(this);
      this.destroy();
    };
    const deadline = setTimeout(close, LINGER_MS);
    // Its own timer: the HTTP server manages the socket's timeout for its own purposes.
    const idle = setTimeout(close, LINGER_IDLE_MS);
    this.on('data', (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > LINGER_BYTES) close();
      else idle.refresh();
    });
    this.once('end', close);
    this.once('close', () => {
      clearTimeout(deadline);
      clearTimeout(idle);
      lingering.delete(this);
    });
    this.end();
  };
}
