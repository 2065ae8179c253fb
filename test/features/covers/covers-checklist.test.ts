import { availableParallelism } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSystemStatus } from '../../../src/features/admin/status/system-status.ts';
import { createLogger } from '../../../src/log.ts';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';
import { capturedLog } from '../../helpers/log-capture.ts';
import { operatorBrowser } from '../../helpers/operator.ts';

// In production the pre-launch checklist says where covers live: on this server's disk a
// second server would not see them, said more strongly when WEB_CONCURRENCY asks for more
// processes than one machine runs. Outside production the list stays as it was.

let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop();
});
afterAll(async () => {
  await shop.close();
});

async function coversItem(config: Partial<TestShop['config']>) {
  const status = createSystemStatus({
    db: shop.db,
    payments: { name: 'sandbox', isLive: false, check: async () => ({ ok: true }) },
    mailer: { smtpConfigured: false, verify: async () => ({ ok: true }) },
    config: { ...shop.config, ...config },
    log: createLogger('silent'),
  });
  const report = await status.check();
  return report.checklist.filter((item) => item.settings.includes('S3_BUCKET'));
}

describe('the covers item of the pre-launch checklist', () => {
  it('in production without a bucket: covers are on this disk, a second server would not see them, and what to do', async () => {
    const [item, ...more] = await coversItem({ isProduction: true, S3_BUCKET: undefined, WEB_CONCURRENCY: undefined });
    expect(more).toEqual([]);
    expect(item).toEqual({
      done: false,
      settings: ['S3_BUCKET'],
      label:
        "Covers are kept on this server's disk, so a second server would not see them. Ask whoever hosts the shop to set up an S3-compatible storage bucket before the shop runs on more than one server.",
    });
  });

  it('says it more strongly when WEB_CONCURRENCY asks for more processes than this machine has cores', async () => {
    const [item] = await coversItem({ isProduction: true, S3_BUCKET: undefined, WEB_CONCURRENCY: availableParallelism() + 1 });
    expect(item!.done).toBe(false);
    expect(item!.label).toContain(
      "Covers are kept on this server's disk only, yet the shop is set up for more processes than one machine runs",
    );
    expect(item!.label).toContain('a second server would show none of the covers uploaded here');
  });

  it('is done in production with a bucket', async () => {
    const [item] = await coversItem({ isProduction: true, S3_BUCKET: 'lantern-covers' });
    expect(item).toMatchObject({
      done: true,
      label: 'Covers are kept in a storage bucket every server shares, so each server shows them all.',
    });
  });

  it('is absent outside production', async () => {
    expect(await coversItem({ isProduction: false, S3_BUCKET: undefined })).toEqual([]);
  });

  it("shows on the status page with the setting for the host, and the Covers card says they are on this server's disk", async () => {
    const { log, lines } = capturedLog('warn');
    const production = await buildTestShop({
      database: shop.database,
      seed: false,
      log,
      env: { NODE_ENV: 'production', PUBLIC_URL: 'https://littlelantern.example', ALLOW_SANDBOX_PAYMENTS_IN_PRODUCTION: 'true' },
    });
    try {
      // Said at start-up too, for whoever reads the log before adding a server.
      expect(lines.map((line) => line.msg)).toContainEqual(
        expect.stringContaining("S3_BUCKET is unset in production: covers are kept on this server's disk"),
      );
      const html = (await (await operatorBrowser(production)).agent.get('/admin').expect(200)).text;
      expect(html).toMatch(
        /Covers are kept on this server&#39;s disk, so a second server would not see them\.[\s\S]*?For your host: [\s\S]*?S3_BUCKET/,
      );
      const card = /<h2>Covers<\/h2>([\s\S]*?)<\/article>/.exec(html)![1]!;
      expect(card).toContain("Covers are kept on this server's disk. A second server would not see them");
      expect(card).not.toContain(production.config.uploadsDir);
    } finally {
      await production.sessions.close();
      await production.db.destroy();
    }
  });
});
