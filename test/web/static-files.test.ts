import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtAssets, publicFiles } from '../../src/web/static-files.ts';
import { gzipSync } from 'node:zlib';

// public/ is listed once at start-up, so a page's path is never looked for on disk.
let root: string;
let app: express.Express;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'shop-public-'));
  mkdirSync(path.join(root, 'covers'));
  writeFileSync(path.join(root, 'covers', 'moon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(path.join(root, 'robots.txt'), 'User-agent: *\n');
  app = express();
  app.use(publicFiles(path.join(root, 'no-build'), root));
  app.use((_req, res) => res.status(404).send('not a file'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('public files', () => {
  it('serves the files public/ held at start-up', async () => {
    await supertest(app).get('/robots.txt').expect(200, 'User-agent: *\n');
    const cover = await supertest(app).get('/covers/moon.svg').expect(200);
    expect(cover.headers['content-type']).toMatch(/^image\/svg\+xml/);
  });

  it('passes every other path on, even a file added since start-up', async () => {
    writeFileSync(path.join(root, 'later.txt'), 'added later');
    await supertest(app).get('/later.txt').expect(404, 'not a file');
    await supertest(app).get('/books').expect(404, 'not a file');
  });

  it('passes writes on', async () => {
    await supertest(app).post('/robots.txt').expect(404, 'not a file');
  });
});

describe("the build's files", () => {
  let build: string;
  let assets: express.Express;
  beforeAll(() => {
    build = mkdtempSync(path.join(tmpdir(), 'shop-build-'));
    mkdirSync(path.join(build, 'assets'));
    writeFileSync(path.join(build, 'assets', 'main-abc123.js'), 'console.log("lantern");');
    writeFileSync(path.join(build, 'assets', 'main-abc123.js.gz'), gzipSync('console.log("lantern");'));
    assets = express();
    assets.use('/assets', builtAssets(build));
    assets.use((_req, res) => res.status(404).send('not a file'));
  });
  afterAll(() => rmSync(build, { recursive: true, force: true }));

  it('sends a file for a year, immutable, as its compressed copy when the browser takes it', async () => {
    const res = await supertest(assets).get('/assets/main-abc123.js').set('Accept-Encoding', 'gzip').expect(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(res.text).toBe('console.log("lantern");');
  });

  it('sends the original to a browser that takes no encoding', async () => {
    const res = await supertest(assets).get('/assets/main-abc123.js').set('Accept-Encoding', 'identity').expect(200);
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it.each(['/assets/', '/assets/.', '/assets/..', '/assets/missing.js'])('answers %s with the 404 of the app', async (url) => {
    await supertest(assets).get(url).expect(404, 'not a file');
  });
});
