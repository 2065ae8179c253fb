import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

const dataDir = () => mkdtempSync(path.join(tmpdir(), 'shop-config-'));

describe('configuration', () => {
  it('starts with no settings at all, on the embedded defaults', () => {
    const config = loadConfig({ DATA_DIR: dataDir() });
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.SESSION_SECRET).toHaveLength(64);
  });

  it('keeps uploaded covers under the data directory unless UPLOADS_DIR says where', () => {
    const dir = dataDir();
    expect(loadConfig({ DATA_DIR: dir }).uploadsDir).toBe(path.join(dir, 'uploads'));
    expect(loadConfig({ DATA_DIR: dir, UPLOADS_DIR: 'shared/uploads' }).uploadsDir).toBe(path.resolve('shared/uploads'));
  });

  it("keeps the shop's calendar in SHOP_TIME_ZONE, and refuses a zone that does not exist", () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).SHOP_TIME_ZONE).toBe('America/New_York');
    expect(loadConfig({ DATA_DIR: dataDir(), SHOP_TIME_ZONE: 'Europe/London' }).SHOP_TIME_ZONE).toBe('Europe/London');
    expect(() => loadConfig({ DATA_DIR: dataDir(), SHOP_TIME_ZONE: 'Mars/Olympus' })).toThrow(/SHOP_TIME_ZONE: must be a time zone name/);
  });

  it('keeps the generated session secret across restarts', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir }).SESSION_SECRET;
    expect(loadConfig({ DATA_DIR: dir }).SESSION_SECRET).toBe(first);
    expect(readFileSync(path.join(dir, 'session-secret'), 'utf8')).toBe(first);
  });

  it.each([
    ['PORT', 'eighty'],
    ['DATABASE_URL', 'postgres://x'],
    ['REDIS_URL', 'localhost:6379'],
    ['NODE_ENV', 'staging'],
    ['SESSION_SECRET', 'short'],
  ])('a bad %s stops start-up with a message naming it', (name, value) => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dataDir(), [name]: value })).toThrow(new RegExp(name));
  });

  it('requires a session secret in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir() })).toThrow(/SESSION_SECRET/);
  });

  it.each([
    [undefined, 0],
    ['false', 0],
    ['0', 0],
    ['true', 1],
    ['1', 1],
    ['2', 2],
    ['10.0.0.1', ['10.0.0.1']],
    ['10.0.0.1, 10.0.0.0/8,loopback', ['10.0.0.1', '10.0.0.0/8', 'loopback']],
    ['fd00::/8', ['fd00::/8']],
  ])('reads TRUST_PROXY=%s as %o (a hop count or proxy addresses, never "trust everything")', (value, expected) => {
    expect(loadConfig({ DATA_DIR: dataDir(), ...(value === undefined ? {} : { TRUST_PROXY: value }) }).TRUST_PROXY).toEqual(expected);
  });

  describe('where the shop listens', () => {
    const production = {
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(32),
      PUBLIC_URL: 'https://shop.example',
      ALLOW_SANDBOX_PAYMENTS_IN_PRODUCTION: 'true',
    };
    const hostOf = (env: Record<string, string>) => loadConfig({ DATA_DIR: dataDir(), ...env }).HOST;

    it('behind a proxy in production with HOST unset: loopback only, so nobody skips the proxy and writes their own X-Forwarded-For', () => {
      expect(hostOf({ ...production, TRUST_PROXY: '1' })).toBe('127.0.0.1');
    });

    it('behind a proxy in production, HOST as set', () => {
      expect(hostOf({ ...production, TRUST_PROXY: '1', HOST: '0.0.0.0' })).toBe('0.0.0.0');
    });

    it('without a proxy in production: every interface', () => {
      expect(hostOf(production)).toBe('0.0.0.0');
      expect(hostOf({ ...production, TRUST_PROXY: '0' })).toBe('0.0.0.0');
    });

    it('with the proxies named by address: every interface, as only they are trusted with X-Forwarded-For', () => {
      expect(hostOf({ ...production, TRUST_PROXY: '10.0.0.5' })).toBe('0.0.0.0');
    });

    it('in development, even with a proxy: every interface', () => {
      expect(hostOf({ TRUST_PROXY: '1' })).toBe('0.0.0.0');
      expect(hostOf({})).toBe('0.0.0.0');
    });
  });

  it.each(['yes', '-1', '11', 'proxy.example.com', '10.0.0.1/33', '10.0.0.1,'])(
    'refuses TRUST_PROXY=%s with a message naming it',
    (value) => {
      expect(() => loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: value })).toThrow(/TRUST_PROXY: must be a number of proxies/);
    },
  );
});
