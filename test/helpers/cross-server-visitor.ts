/**
 * One browser whose cookies travel with it from one shop process or server to another, as a
 * load balancer sends a parent's requests wherever it likes.
 */
export class Visitor {
  private cookies = new Map<string, string>();
  private token = '';

  async call(base: string, method: string, path: string, body?: object) {
    // Without a session there is no token yet: the first change says it came from the shop's page.
    if (method !== 'GET' && !this.token) this.token = (await (await this.call(base, 'GET', '/api/session')).json()).csrfToken ?? '';
    const res = await fetch(base + path, {
      method,
      redirect: 'manual',
      headers: {
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(this.token ? { 'x-csrf-token': this.token } : { 'sec-fetch-site': 'same-origin' }),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : null,
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return res;
  }

  async json(base: string, method: string, path: string, body?: object) {
    const res = await this.call(base, method, path, body);
    const answer = await res.json();
    if (answer?.csrfToken) this.token = answer.csrfToken;
    return { status: res.status, body: answer };
  }
}
