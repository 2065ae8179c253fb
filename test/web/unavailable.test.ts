// Which errors mean "a backing service is out, try again shortly" (503 + Retry-After),
// answered once by the error handler, and which stay a plain 500.
import express from 'express';
import knex from 'knex';
import { ClientOfflineError } from 'redis';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.ts';
import { handleErrors } from '../../src/web/error-handlers.ts';
import { isServiceUnavailable } from '../../src/web/unavailable.ts';

const coded = (code: string) => Object.assign(new Error(code), { code });

describe('isServiceUnavailable', () => {
  it.each([
    ['MariaDB refusing connections', coded('ECONNREFUSED')],
    ['a connection lost mid-query', coded('PROTOCOL_CONNECTION_LOST')],
    ['a busy SQLite file', coded('SQLITE_BUSY')],
    ['no pool connection in time', new knex.KnexTimeoutError('Knex: Timeout acquiring a connection.')],
    ['Redis offline', new ClientOfflineError()],
    ['a driver error wrapped by objection', Object.assign(new Error('wrapped'), { nativeError: coded('ECONNRESET') })],
    ['a driver error as a cause', new Error('outer', { cause: coded('ER_CON_COUNT_ERROR') })],
  ])('%s is an outage', (_what, err) => {
    expect(isServiceUnavailable(err)).toBe(true);
  });

  it.each([
    ['a duplicate key', coded('ER_DUP_ENTRY')],
    ['a data-too-long error', coded('ER_DATA_TOO_LONG')],
    ['a plain bug', new TypeError('x is undefined')],
    ['nothing', undefined],
  ])('%s is not', (_what, err) => {
    expect(isServiceUnavailable(err)).toBe(false);
  });
});

describe('the error handler', () => {
  const app = express();
  app.get('/api/down', () => {
    throw coded('ECONNREFUSED');
  });
  app.get('/api/bug', () => {
    throw new Error('SELECT secret');
  });
  app.use(handleErrors(createLogger('silent')));

  it('answers an outage with 503, Retry-After and a readable message', async () => {
    const res = await supertest(app).get('/api/down').expect(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toEqual({ message: 'The shop is briefly unavailable. Please try again in a few seconds.' });
  });

  it('answers anything else with a generic 500 and no Retry-After', async () => {
    const res = await supertest(app).get('/api/bug').expect(500);
    expect(res.headers['retry-after']).toBeUndefined();
    expect(res.body).toEqual({ message: 'Something went wrong. Please try again.' });
  });
});
