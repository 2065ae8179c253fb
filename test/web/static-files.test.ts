import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staticFiles } from '../../src/web/static-files.ts';

// public/ is listed once at start-up, so a page's path is never looked for on disk.
let root: string;
let app: express.Express;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'shop-public-'));
  mkdirSync(path.join(root, 'covers'));
  writeFileSync(path.join(root, 'covers', 'moon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(path.join(root, 'robots.txt'), 'User-agent: *\n');
  app = express();
  app.use(staticFiles(path.join(root, 'no-build'), root));
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
