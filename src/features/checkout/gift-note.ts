// The gift note's rule, shared by the checkout's schema and the card form (no zod here, so
// the island that imports it stays small).

/** A gift note's most characters, counted as a parent sees them (an emoji is one). */
export const GIFT_NOTE_MAX = 200;

/** The name of the child a gift is for: as long as a parent's own first name may be. */
export const GIFT_RECIPIENT_MAX = 100;

export const GIFT_NOTE_MESSAGES = {
  tooLong: `Your gift note can be up to ${GIFT_NOTE_MAX} characters. Please shorten it.`,
  recipientTooLong: `The name of the person the gift is for can be up to ${GIFT_RECIPIENT_MAX} characters.`,
  notText: 'The gift note must be text.',
};

/** Characters as a parent sees and counts them: grapheme clusters, not UTF-16 units. */
export function visibleLength(text: string): number {
  return [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text)].length;
}
