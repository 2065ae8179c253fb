import type supertest from 'supertest';
import { csrfTokenFor } from './app.ts';

let counter = 0;
export function uniqueEmail(name = 'parent'): string {
  counter += 1;
  return `${name}.${process.pid}.${Date.now()}.${counter}@example.com`;
}

export interface Parent {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

export function newParent(overrides: Partial<Parent> = {}): Parent {
  return { email: uniqueEmail(), password: 'story-time-42', firstName: 'Amara', lastName: 'Osei', ...overrides };
}

/** A browser that talks JSON to /api, keeping its cookies and current CSRF token. */
export class ApiBrowser {
  token = '';
  constructor(readonly agent: supertest.Agent) {}

  async refreshToken(): Promise<void> {
    this.token = await csrfTokenFor(this.agent);
  }

  async send(method: 'post' | 'put' | 'delete', path: string, body?: object): Promise<supertest.Response> {
    if (!this.token) await this.refreshToken();
    const req = this.agent[method](path).set('x-csrf-token', this.token);
    const res = await (body ? req.send(body) : req);
    // Signing in or up starts a new session with a new token.
    if (res.body?.csrfToken) this.token = res.body.csrfToken;
    return res;
  }

  get(path: string) {
    return this.agent.get(path);
  }

  async signUp(parent: Parent): Promise<supertest.Response> {
    return this.send('post', '/api/auth/signup', parent);
  }

  async signIn(email: string, password: string): Promise<supertest.Response> {
    return this.send('post', '/api/auth/login', { email, password });
  }
}
