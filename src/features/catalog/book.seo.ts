import type { BookDto } from './book.dto.ts';
import type { Offer } from './preorder.rules.ts';
import { absoluteCoverUrl } from './cover.ts';

export const PUBLISHER = 'Little Lantern Books';

/**
 * schema.org's availability for what a title offers today. PreOrder only while a parent can
 * place one (with the day it is out); a first print run fully pre-ordered is SoldOut; a title
 * with no copies and no pre-orders is OutOfStock.
 */
export function availabilityOf(offer: Offer): { availability: string; availabilityStarts?: string } {
  switch (offer.kind) {
    case 'buy':
      return { availability: 'https://schema.org/InStock' };
    case 'preorder':
      return { availability: 'https://schema.org/PreOrder', availabilityStarts: offer.outOn };
    case 'preorders-full':
      return { availability: 'https://schema.org/SoldOut' };
    case 'coming-soon':
      return { availability: 'https://schema.org/OutOfStock' };
  }
}

/** schema.org Book + Product, so search engines show the price and availability. `offer`: what the page offers today. */
export function bookJsonLd(book: BookDto, offer: Offer, origin: string): object {
  const url = `${origin}/books/${book.id}`;
  return {
    '@context': 'https://schema.org',
    '@type': ['Book', 'Product'],
    '@id': url,
    url,
    name: book.title,
    author: { '@type': 'Person', name: book.author },
    publisher: { '@type': 'Organization', name: book.publisher || PUBLISHER },
    ...(book.isbn ? { isbn: book.isbn } : {}),
    datePublished: book.publishedOn,
    description: book.description,
    ...(book.imageUrl ? { image: absoluteCoverUrl(origin, book.imageUrl) } : {}),
    typicalAgeRange: book.ageRange,
    audience: { '@type': 'PeopleAudience', suggestedMinAge: Number(book.ageRange.split('-')[0]) || 3 },
    offers: {
      '@type': 'Offer',
      price: book.price,
      priceCurrency: 'USD',
      ...availabilityOf(offer),
      url,
    },
  };
}
