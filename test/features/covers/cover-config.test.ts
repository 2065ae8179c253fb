import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { bucketOptions } from '../../../src/features/covers/store-choice.ts';

// The bucket's settings are checked at start-up, like every other: a half-set bucket stops the
// shop with a message naming the variable, rather than quietly keeping covers on one disk.

const BASE = { NODE_ENV: 'test', DATA_DIR: 'var/test-config', SESSION_SECRET: 'x'.repeat(32) };
const refusal = (env: Record<string, string>) => {
  try {
    loadConfig({ ...BASE, ...env });
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('the configuration was accepted');
};

describe('the bucket settings', () => {
  it('refuses an endpoint or a public address without a bucket', () => {
    expect(refusal({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toContain('S3_ENDPOINT: set S3_BUCKET too');
    expect(refusal({ S3_PUBLIC_URL: 'https://covers.example' })).toContain('S3_PUBLIC_URL: set S3_BUCKET too');
  });

  it('refuses an access key without its secret, and addresses that are not web addresses', () => {
    expect(refusal({ S3_BUCKET: 'covers', AWS_ACCESS_KEY_ID: 'key' })).toContain(
      'AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY: set both or neither',
    );
    expect(refusal({ S3_BUCKET: 'covers', S3_ENDPOINT: 'minio:9000' })).toContain('S3_ENDPOINT');
    expect(refusal({ S3_BUCKET: 'covers', S3_PUBLIC_URL: 'ftp://covers.example' })).toContain('S3_PUBLIC_URL');
  });

  it('takes a public address with or without its trailing slash, and hands the SDK the credentials', () => {
    const config = loadConfig({
      ...BASE,
      S3_BUCKET: 'covers',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_PUBLIC_URL: 'https://cdn.example/covers/',
      AWS_ACCESS_KEY_ID: 'key',
      AWS_SECRET_ACCESS_KEY: 'secret',
    });
    expect(config.S3_PUBLIC_URL).toBe('https://cdn.example/covers');
    expect(bucketOptions(config, 'covers')).toEqual({
      bucket: 'covers',
      endpoint: 'http://127.0.0.1:9000',
      region: undefined,
      credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
    });
  });
});
