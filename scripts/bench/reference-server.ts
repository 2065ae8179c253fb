// The two references the shop is compared with, serving the exact bytes of its /books page:
//   tsx scripts/bench/reference-server.ts bare FILE PORT     node:http, the bytes from memory
//   tsx scripts/bench/reference-server.ts static FILE PORT   express.static, the bytes as a file
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import express from 'express';

const [mode, file = '', port = '0'] = process.argv.slice(2);

if (mode === 'bare') {
  const body = readFileSync(file);
  createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
    res.end(body);
  }).listen(Number(port), '127.0.0.1');
} else if (mode === 'static') {
  const app = express();
  app.use(express.static(path.dirname(file), { index: false }));
  app.listen(Number(port), '127.0.0.1');
} else {
  console.error('usage: reference-server.ts bare|static FILE PORT');
  process.exit(2);
}
