import { describe, expect, it } from 'vitest';
import { dayIn, isTimeZone } from '../../src/lib/dates.ts';

describe("the shop's calendar day", () => {
  // 03:30 UTC on March 2: still March 1 in New York, already March 2 in London and Tokyo.
  const early = new Date('2027-03-02T03:30:00Z');

  it('is the day in the zone asked, not in UTC', () => {
    expect(dayIn('America/New_York', early)).toBe('2027-03-01');
    expect(dayIn('Europe/London', early)).toBe('2027-03-02');
    expect(dayIn('Asia/Tokyo', early)).toBe('2027-03-02');
  });

  it('turns at the zone\u2019s own midnight', () => {
    expect(dayIn('America/New_York', new Date('2027-03-02T04:59:59Z'))).toBe('2027-03-01');
    expect(dayIn('America/New_York', new Date('2027-03-02T05:00:00Z'))).toBe('2027-03-02');
  });

  it('knows the zones the runtime knows', () => {
    expect(isTimeZone('America/New_York')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});
