// Typed errors thrown anywhere below the routes and answered once per surface
// (JSON for /api, a rendered page for HTML) by handleErrors in app.ts.

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Extra fields a JSON answer carries (the failed-login redirect, for one). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export class BadRequest extends HttpError {
  constructor(message: string, details?: Record<string, unknown>) {
    super(400, message, details);
  }
}

export class Unauthorized extends HttpError {
  constructor(message = 'Please sign in to continue.') {
    super(401, message);
  }
}

export class Forbidden extends HttpError {
  constructor(message = 'You do not have access to this page.') {
    super(403, message);
  }
}

export class NotFound extends HttpError {
  constructor(message = 'Not found') {
    super(404, message);
  }
}

export class Conflict extends HttpError {
  constructor(message: string, details?: Record<string, unknown>) {
    super(409, message, details);
  }
}

export class TooManyRequests extends HttpError {
  constructor(message = 'Too many attempts. Please wait a few minutes and try again.') {
    super(429, message);
  }
}

/** A service the request needs is out of reach for now: 503, and when to try again. */
export class Unavailable extends HttpError {
  constructor(
    message = 'This is not available right now. Please try again in a minute.',
    readonly retryAfterSeconds = 30,
  ) {
    super(503, message);
  }
}

/** A typed refusal the person can act on (4xx), as opposed to a fault of the shop or an outage. */
export function isClientError(err: unknown): err is HttpError {
  return err instanceof HttpError && err.status < 500;
}
