import type { Request, RequestHandler } from 'express';
import { Unauthorized } from './errors.ts';

// Sign-in state lives in the session as a user id; these helpers are the only writers.

/** A fresh session id at sign-in, so a cookie from before it is useless after it. */
export function regenerateSession(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.regenerate((err?: Error) => (err ? reject(err) : resolve())));
}

export function destroySession(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.destroy((err?: Error) => (err ? reject(err) : resolve())));
}

/** JSON routes for signed-in customers: 401 otherwise. */
export const requireUser: RequestHandler = (req, _res, next) => {
  next(req.session.userId ? undefined : new Unauthorized('Please sign in to continue.'));
};

export function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}
