import { mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { restartDelayMs } from '../src/cluster.ts';
import { ConfigError, loadConfig } from '../src/config.ts';

const base = () => ({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'shop-config-')) });
const production = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://shop.example',
  SESSION_SECRET: 'x'.repeat(40),
  ALLOW_SANDBOX_PAYMENTS_IN_PRODUCTION: 'true',
};
const mariadb = { DATABASE_URL: 'mysql://shop:shop@127.0.0.1:3306/shop' };

describe('WEB_CONCURRENCY', () => {
  it('is one process in development and test', () => {
    expect(loadConfig({ ...base() }).workers).toBe(1);
    expect(loadConfig({ ...base(), NODE_ENV: 'test', ...mariadb }).workers).toBe(1);
  });

  it('is one process per core in production on MariaDB', () => {
    expect(loadConfig({ ...base(), ...production, ...mariadb }).workers).toBe(availableParallelism());
  });

  it('stays one process in production on the embedded SQLite file', () => {
    expect(loadConfig({ ...base(), ...production }).workers).toBe(1);
  });

  it('takes the number given', () => {
    expect(loadConfig({ ...base(), ...mariadb, WEB_CONCURRENCY: '3' }).workers).toBe(3);
    expect(loadConfig({ ...base(), ...production, ...mariadb, WEB_CONCURRENCY: '1' }).workers).toBe(1);
  });

  it('refuses more than one process on SQLite, whose file one process writes', () => {
    expect(() => loadConfig({ ...base(), WEB_CONCURRENCY: '2' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base(), WEB_CONCURRENCY: '2' })).toThrow(/WEB_CONCURRENCY: more than one process needs DATABASE_URL/);
  });

  it.each(['0', 'two', '-1', '1.5', '65'])('refuses %s with a message naming the variable', (value) => {
    expect(() => loadConfig({ ...base(), ...mariadb, WEB_CONCURRENCY: value })).toThrow(/WEB_CONCURRENCY/);
  });
});

describe('restarting a worker that died', () => {
  it('waits a second after one failure and doubles the wait for each failure in a row, up to 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(restartDelayMs)).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });
});
