// The Redis client's errors reach the log, but a Redis that is away (which fails every
// reconnection, many times a second) makes one line per kind of error per minute.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.ts';
import { REDIS_ERROR_LOG_INTERVAL_MS, redisErrorLog } from '../../src/web/session.ts';
import { buildTestShop } from '../helpers/app.ts';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger(
    'info',
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    }),
  );
  return { lines, log };
}

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' });
const reset = () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });

describe('Redis client errors', () => {
  it('are logged at error, at most once a minute per kind, with the count left out since', () => {
    const { lines, log } = capture();
    let time = 0;
    const onError = redisErrorLog(log, { now: () => time });
    for (let i = 0; i < 100; i++) {
      onError(refused());
      time += 100;
    }
    onError(reset());
    expect(lines.map((l) => [l.level, (l.err as { code: string }).code])).toEqual([
      [50, 'ECONNREFUSED'],
      [50, 'ECONNRESET'],
    ]);
    time = REDIS_ERROR_LOG_INTERVAL_MS + 1;
    onError(refused());
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatchObject({ msg: 'Redis client error; reconnecting', unloggedSinceLast: 99 });
  });

  it.runIf(process.env.REDIS_URL)("reach the shop's log from the session store's client", async () => {
    const { lines, log } = capture();
    const shop = await buildTestShop({ seed: false, log });
    try {
      shop.sessions.redis!.emit('error', refused());
      shop.sessions.redis!.emit('error', refused());
      expect(lines.filter((l) => l.msg === 'Redis client error; reconnecting')).toHaveLength(1);
    } finally {
      await shop.close();
    }
  });
});
