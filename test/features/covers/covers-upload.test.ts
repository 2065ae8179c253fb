import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCoverBucket, type CoverBucket } from '../../helpers/cover-bucket.ts';

// `npm run covers:upload`: a shop moving from one server's disk to a bucket copies the covers
// it has, runs it again harmlessly, and is told in words when there is no bucket to copy to.

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../../..');
const NAMES = ['a'.repeat(32), 'b'.repeat(32)];

let bucket: CoverBucket;
let uploads: string;
beforeAll(async () => {
  bucket = await startCoverBucket();
  uploads = mkdtempSync(path.join(tmpdir(), 'covers-upload-'));
  mkdirSync(path.join(uploads, 'covers'));
  for (const name of NAMES)
    for (const width of [160, 320]) writeFileSync(path.join(uploads, 'covers', `${name}-${width}.webp`), `${name}${width}`);
  // A half-written file from an interrupted upload is not a cover.
  writeFileSync(path.join(uploads, 'covers', `${NAMES[0]}-480.webp.1a2b3c.tmp`), 'partial');
});
afterAll(async () => {
  await bucket?.close();
  rmSync(uploads, { recursive: true, force: true });
});

/** The command package.json runs for `npm run covers:upload`. */
async function coversUpload(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const script = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts['covers:upload'] as string;
  const [bin, ...args] = script.split(' ');
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    DATA_DIR: uploads,
    UPLOADS_DIR: uploads,
    DOTENV_CONFIG_QUIET: 'true',
    DOTENV_CONFIG_PATH: path.join(uploads, 'no.env'),
    ...env,
  };
  delete childEnv.DATABASE_URL;
  if (!env.S3_BUCKET) delete childEnv.S3_BUCKET;
  try {
    const { stdout, stderr } = await run(path.join(ROOT, 'node_modules/.bin', bin!), args, { cwd: ROOT, env: childEnv });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const failed = err as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('npm run covers:upload', () => {
  it('copies the covers on disk into the bucket, then skips them on a second run', async () => {
    const first = await coversUpload(bucket.env);
    expect(first).toMatchObject({ code: 0 });
    expect(first.stdout.trim()).toBe('Uploaded 4 covers, 0 already in the bucket.');
    const keys = NAMES.flatMap((name) => [160, 320].map((w) => `covers/${name}-${w}.webp`)).sort();
    expect(await bucket.keys()).toEqual(keys);

    writeFileSync(path.join(uploads, 'covers', `${'c'.repeat(32)}-160.webp`), 'new');
    const second = await coversUpload(bucket.env);
    expect(second).toMatchObject({ code: 0 });
    expect(second.stdout.trim()).toBe('Uploaded 1 cover, 4 already in the bucket.');
    expect(await bucket.keys()).toEqual([...keys, `covers/${'c'.repeat(32)}-160.webp`].sort());
  });

  it('refuses in words, with a failing exit, when no bucket is set', async () => {
    const res = await coversUpload({});
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('S3_BUCKET is not set, so there is no bucket to copy covers to.');
  });

  it('refuses in words, with a failing exit, when the bucket cannot be reached', async () => {
    const res = await coversUpload({ ...bucket.env, S3_BUCKET: 'no-such-bucket' });
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('The bucket no-such-bucket could not be reached, so no cover was copied.');
    expect(res.stdout).toBe('');
  });
});
