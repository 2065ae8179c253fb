import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

/**
 * Closes an HTTP server without failing a request a client has already sent.
 *
 * Node's own server.close() destroys every keep-alive connection that looks idle, but a
 * connection looks idle while the next request is still on the wire, and that request is
 * then reset. Instead: stop accepting connections, answer every request from now on with
 * `Connection: close` (so the client sends nothing more on that connection and it closes
 * after its answer), and close a connection that stays idle only after a grace period.
 *
 * Closing the listening socket makes the system reset every connection still queued on it:
 * a client that connected while this process was busy has sent its request there already.
 * So the queue is emptied first. A cluster's workers did not see this, since the primary
 * holds the listening socket and accepts as soon as a client connects.
 */
export function gracefulCloser(server: Server, { idleGraceMs = 1000 } = {}): () => Promise<void> {
  const inFlight = new Map<Socket, Set<ServerResponse>>();
  const idleTimers = new Map<Socket, NodeJS.Timeout>();
  let closing = false;

  const closeWhenStillIdle = (socket: Socket) => {
    if (idleTimers.has(socket) || inFlight.get(socket)?.size) return;
    idleTimers.set(
      socket,
      setTimeout(() => {
        if (!inFlight.get(socket)?.size) socket.destroy();
      }, idleGraceMs),
    );
  };

  let accepted = 0;
  server.on('connection', (socket: Socket) => {
    accepted += 1;
    inFlight.set(socket, new Set());
    socket.once('close', () => {
      clearTimeout(idleTimers.get(socket));
      idleTimers.delete(socket);
      inFlight.delete(socket);
    });
  });

  // Before the app's own listener: an answer sent at once, from memory, must already say close.
  server.prependListener('request', (req, res) => {
    const socket = req.socket;
    clearTimeout(idleTimers.get(socket));
    idleTimers.delete(socket);
    const responses = inFlight.get(socket) ?? new Set<ServerResponse>();
    inFlight.set(socket, responses);
    responses.add(res);
    if (closing) res.setHeader('Connection', 'close');
    res.once('close', () => {
      responses.delete(res);
      // An answer whose headers went out before shutdown promised keep-alive.
      if (closing && !socket.destroyed) closeWhenStillIdle(socket);
    });
  });

  return async () => {
    // Before any answer says close: a client told so connects again, and would join the queue.
    await acceptQueuedConnections(() => accepted);
    await new Promise<void>((resolve) => {
      closing = true;
      // net's close: stop accepting; 'close' fires once every connection has ended.
      NetServer.prototype.close.call(server, () => resolve());
      for (const [socket, responses] of inFlight) {
        for (const res of responses) if (!res.headersSent) res.setHeader('Connection', 'close');
        closeWhenStillIdle(socket);
      }
    });
  };
}

// The event loop may take only one queued connection per turn: turn until a whole turn
// (the first wait may end after this turn's poll for I/O) takes none. Bounded by what the
// system queues for a listening socket, so a stream of new clients cannot hold it open.
const MOST_QUEUED_CONNECTIONS = 511;

async function acceptQueuedConnections(acceptedSoFar: () => number): Promise<void> {
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
  await nextTurn();
  for (let turn = 0; turn < MOST_QUEUED_CONNECTIONS; turn += 1) {
    const before = acceptedSoFar();
    await nextTurn();
    if (acceptedSoFar() === before) return;
  }
}
