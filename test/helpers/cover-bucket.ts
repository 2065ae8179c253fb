import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
// @ts-expect-error s3rver ships no types
import S3rver from 's3rver';

/** A real S3-protocol server in this process (s3rver), one bucket, files in a temporary folder. */
export interface CoverBucket {
  bucket: string;
  endpoint: string;
  /** The settings a shop needs to keep its covers there. */
  env: Record<string, string>;
  /** The keys in the bucket, sorted. */
  keys(): Promise<string[]>;
  /** Stops answering (connections refused) until start(). */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}

// The fixed credentials s3rver accepts.
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export async function startCoverBucket(bucket = 'lantern-covers'): Promise<CoverBucket> {
  const directory = mkdtempSync(path.join(tmpdir(), 's3rver-'));
  let port = 0;
  let server: S3rverServer;
  const run = async () => {
    server = new S3rver({ port, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket }] }) as S3rverServer;
    port = (await server.run()).port;
  };
  await run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ endpoint, forcePathStyle: true, region: 'us-east-1', credentials: CREDENTIALS });
  return {
    bucket,
    endpoint,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
    },
    async keys() {
      const answer = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (answer.Contents ?? []).map((o) => o.Key!).sort();
    },
    stop: () => server.close(),
    start: run,
    async close() {
      await server.close().catch(() => {});
      client.destroy();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
