import { describe, expect, it } from 'vitest';
import { widthsFor } from '../../../src/features/admin/books/cover-images.ts';
import { coverImage } from '../../../src/features/catalog/cover.ts';

const none = { coverName: null, coverWidth: null, coverHeight: null, coverWidths: null };

describe('coverImage', () => {
  it('shows a drawn (SVG) cover at its 600x900 canvas, with no srcset', () => {
    expect(coverImage({ imageUrl: '/covers/moon-garden.svg', ...none })).toEqual({
      src: '/covers/moon-garden.svg',
      srcset: null,
      width: 600,
      height: 900,
    });
  });

  it('falls back to the placeholder when a book has no cover at all', () => {
    expect(coverImage({ imageUrl: null, ...none }).src).toBe('/images/placeholder-cover.svg');
  });

  it('lists every stored width of an uploaded cover, the largest as src', () => {
    const cover = coverImage({
      imageUrl: '/uploads/covers/ab-480.webp',
      coverName: 'ab',
      coverWidth: 480,
      coverHeight: 700,
      coverWidths: '160,320,480',
    });
    expect(cover).toEqual({
      src: '/uploads/covers/ab-480.webp',
      srcset: '/uploads/covers/ab-160.webp 160w, /uploads/covers/ab-320.webp 320w, /uploads/covers/ab-480.webp 480w',
      width: 480,
      height: 700,
    });
  });
});

describe('widthsFor', () => {
  it('stops at 960 for a large original', () => {
    expect(widthsFor(3000)).toEqual([160, 320, 480, 640, 800, 960]);
  });

  it('never goes past the original, which is kept when it falls between two widths', () => {
    expect(widthsFor(500)).toEqual([160, 320, 480, 500]);
    expect(widthsFor(900)).toEqual([160, 320, 480, 640, 800, 900]);
    expect(widthsFor(480)).toEqual([160, 320, 480]);
    expect(widthsFor(100)).toEqual([100]);
  });
});
