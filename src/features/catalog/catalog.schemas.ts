import { z } from 'zod';

export const bookId = z.coerce
  .number({ message: 'Book id must be a whole number' })
  .int('Book id must be a whole number')
  .positive('Book id must be a positive whole number')
  .max(2_147_483_647, 'Book id is too large');

export const bookListQuery = z.object({
  exclude: bookId.optional(),
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(100, 'limit must be at most 100')
    .optional(),
  random: z.enum(['true', 'false'], { message: "random must be 'true' or 'false'" }).optional(),
});

export type BookListQuery = z.infer<typeof bookListQuery>;
