import { createHmac, timingSafeEqual } from 'node:crypto';

// The link in every back-in-stock email names the address and the book and is signed with the
// shop's secret, so cancelling needs nothing stored beyond the request itself.

export interface WaitingRequest {
  bookId: number;
  email: string;
}

export interface UnsubscribeTokens {
  sign(request: WaitingRequest): string;
  /** The request a token names, or undefined for a token the shop did not sign. */
  verify(token: string): WaitingRequest | undefined;
}

export function unsubscribeTokens(secret: string): UnsubscribeTokens {
  const mac = (payload: string) => createHmac('sha256', secret).update(`back-in-stock:${payload}`).digest('base64url');
  return {
    sign({ bookId, email }) {
      const payload = `${bookId}.${Buffer.from(email, 'utf8').toString('base64url')}`;
      return `${payload}.${mac(payload)}`;
    },
    verify(token) {
      const [id, address, signature, ...rest] = token.split('.');
      if (!id || !address || !signature || rest.length || !/^\d{1,10}$/.test(id)) return undefined;
      const expected = Buffer.from(mac(`${id}.${address}`));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      return { bookId: Number(id), email: Buffer.from(address, 'base64url').toString('utf8') };
    },
  };
}
