import { createHmac, timingSafeEqual } from 'node:crypto';

// The cancel-and-refund link in a pre-order's emails names the order and its parent and is
// signed with the shop's secret: the link is the proof, so the page needs no sign-in and
// nothing is stored for it. A token names one order of one parent and can only cancel it.

export interface CancelLink {
  orderId: number;
  userId: number;
}

export interface CancelLinkTokens {
  sign(link: CancelLink): string;
  /** The order a token names, or undefined for a token the shop did not sign (forged, changed, cut short). */
  verify(token: string): CancelLink | undefined;
}

const ID = /^\d{1,10}$/;

export function cancelLinkTokens(secret: string): CancelLinkTokens {
  // Its own purpose in the MAC, so no other signed link of the shop is ever taken for this one.
  const mac = (payload: string) => createHmac('sha256', secret).update(`preorder-cancel:${payload}`).digest('base64url');
  return {
    sign({ orderId, userId }) {
      const payload = `${orderId}.${userId}`;
      return `${payload}.${mac(payload)}`;
    },
    verify(token) {
      const [orderId, userId, signature, ...rest] = token.split('.');
      if (!orderId || !userId || !signature || rest.length || !ID.test(orderId) || !ID.test(userId)) return undefined;
      const expected = Buffer.from(mac(`${orderId}.${userId}`));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      return { orderId: Number(orderId), userId: Number(userId) };
    },
  };
}
