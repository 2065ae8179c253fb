import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/log.ts';

/** A logger at `level` whose JSON lines are kept, parsed, in `lines`, for tests of what the shop logs. */
export function capturedLog(level: Parameters<typeof createLogger>[0] = 'info'): { log: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { log: createLogger(level, stream), lines };
}
