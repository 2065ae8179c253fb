import type { BookDto } from './book.dto.ts';

export const PUBLISHER = 'Little Lantern Books';

/** schema.org Book + Product, so search engines show the price and availability. */
export function bookJsonLd(book: BookDto, origin: string): object {
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
    ...(book.imageUrl ? { image: `${origin}${book.imageUrl}` } : {}),
    typicalAgeRange: book.ageRange,
    audience: { '@type': 'PeopleAudience', suggestedMinAge: Number(book.ageRange.split('-')[0]) || 3 },
    offers: {
      '@type': 'Offer',
      price: book.price,
      priceCurrency: 'USD',
      availability: book.inStock > 0 ? 'https://schema.org/InStock' : 'https://schema.org/PreOrder',
      url,
    },
  };
}
