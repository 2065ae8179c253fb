// The carriers an order can ship with, and where a parent follows a parcel. 'Other' (a local
// courier, hand delivery) has no tracking page we know of.

export const CARRIERS = ['USPS', 'UPS', 'FedEx', 'DHL', 'Other'] as const;
export type Carrier = (typeof CARRIERS)[number];

const TRACKING_PAGES: Record<Exclude<Carrier, 'Other'>, string> = {
  USPS: 'https://tools.usps.com/go/TrackConfirmAction?tLabels=',
  UPS: 'https://www.ups.com/track?tracknum=',
  FedEx: 'https://www.fedex.com/fedextrack/?trknbr=',
  DHL: 'https://www.dhl.com/us-en/home/tracking/tracking-express.html?submit=1&tracking-id=',
};

export function trackingUrl(carrier: string | null, trackingNumber: string | null): string | null {
  if (!carrier || !trackingNumber || !(carrier in TRACKING_PAGES)) return null;
  return TRACKING_PAGES[carrier as keyof typeof TRACKING_PAGES] + encodeURIComponent(trackingNumber);
}
