// Load during an outage: waves of concurrent requests, each with a generous deadline.
// The deadline is a correctness bound ("fails fast, never hangs"), not a speed measurement.
import type supertest from 'supertest';

export const ANSWER_DEADLINE_MS = 3000;

export interface Answer {
  path: string;
  /** 0 when no answer came before the deadline. */
  status: number;
  retryAfter: string | undefined;
  contentType: string;
  message: unknown;
  text: string;
  ms: number;
}

export async function ask(agent: supertest.Agent, path: string): Promise<Answer> {
  const started = Date.now();
  try {
    const res = await agent.get(path).timeout(ANSWER_DEADLINE_MS);
    return {
      path,
      status: res.status,
      retryAfter: res.headers['retry-after'],
      contentType: res.headers['content-type'] ?? '',
      message: res.body?.message,
      text: res.text ?? '',
      ms: Date.now() - started,
    };
  } catch {
    return { path, status: 0, retryAfter: undefined, contentType: '', message: undefined, text: '', ms: Date.now() - started };
  }
}

/** Waves of `perWave` concurrent requests, cycling through `paths`, for `durationMs`. */
export async function underLoad(agents: supertest.Agent[], paths: string[], durationMs: number, perWave = 20): Promise<Answer[]> {
  const answers: Answer[] = [];
  const end = Date.now() + durationMs;
  while (Date.now() < end) {
    const wave = Array.from({ length: perWave }, (_, i) => ask(agents[i % agents.length]!, paths[i % paths.length]!));
    answers.push(...(await Promise.all(wave)));
    await new Promise((r) => setTimeout(r, 200));
  }
  return answers;
}

/** Asks until `ok` holds for an answer, or gives up after `timeoutMs`. */
export async function eventually(agent: supertest.Agent, path: string, ok: (a: Answer) => boolean, timeoutMs = 15_000): Promise<Answer> {
  const deadline = Date.now() + timeoutMs;
  let last: Answer;
  do {
    last = await ask(agent, path);
    if (ok(last)) return last;
    await new Promise((r) => setTimeout(r, 250));
  } while (Date.now() < deadline);
  return last;
}

/** What every answer during an outage must be: 503, Retry-After, a readable message. */
export function unavailableAnswers(answers: Answer[]) {
  return answers.map((a) => ({
    status: a.status,
    retryAfter: a.retryAfter !== undefined && /^\d+$/.test(a.retryAfter),
    body: a.path.startsWith('/api/')
      ? typeof a.message === 'string' && a.contentType.includes('json')
      : a.contentType.includes('html') && /try again/i.test(a.text),
  }));
}
