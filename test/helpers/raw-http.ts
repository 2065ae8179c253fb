import { request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createServer } from 'node:http';
import type { RequestListener } from 'node:http';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as sent, still compressed. */
  body: Buffer;
  /** The body after undoing its Content-Encoding. */
  text(): string;
}

/** One request whose response body is kept as sent: supertest would decompress it. */
export async function rawGet(app: RequestListener, path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const server = createServer(app).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise<RawResponse>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path, headers: { Connection: 'close', ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: () => decode(body, res.headers['content-encoding']) });
        });
        res.on('error', reject);
      })
        .on('error', reject)
        .end();
    });
  } finally {
    server.close();
  }
}

function decode(body: Buffer, encoding: string | undefined): string {
  if (encoding === 'br') return brotliDecompressSync(body).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(body).toString('utf8');
  if (encoding) throw new Error(`unexpected Content-Encoding ${encoding}`);
  return body.toString('utf8');
}
