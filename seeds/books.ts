import type { Knex } from 'knex';
import { bumpCatalogueVersion } from '../src/features/catalog/catalogue-version.ts';
import type { SeedBookFields } from '../src/features/catalog/book-fields.ts';

/**
 * One row of the `books` table as the seed writes it (snake_case columns): a column for each field
 * src/features/catalog/book-fields.ts gives a seed column, and the cover. A price is DECIMAL(10,2)
 * written as a string ("12.99"); a link is a full Amazon link, '#coming-soon', or null.
 */
export type SeedBook = SeedBookFields & { image_url: string };

/** A forthcoming title: its publication date is this many days after the seeding day. */
type ForthcomingSeed = Omit<SeedBook, 'published_on'> & { out_in_days: number };

const COMING_SOON = '#coming-soon';

// The Little Lantern Books catalogue. Prices straddle the shipping tiers
// (under $25, exactly $25.00, $25-$49.99, $50 and over); stock runs from sold out to plenty.
const published: SeedBook[] = [
  {
    title: 'Pip and the Moon Garden',
    author: 'Rosalind Ashby',
    description:
      "When the moon rises over Granny Fern's garden, a small hedgehog named Pip discovers flowers that only open at night. " +
      'Together with a sleepy moth and a very polite toad, Pip tends the silver blooms until morning. ' +
      'A hushed, glowing bedtime story about noticing the quiet wonders right outside your window.',
    price: '16.99',
    image_url: '/covers/moon-garden.svg',
    in_stock: 24,
    amazon_url: 'https://www.amazon.com/dp/1917342015',
    amazon_kindle_url: 'https://www.amazon.com/dp/B0CW4KQ7ZM',
    age_range: '3-5',
    pages: 32,
    published_on: '2024-02-13',
    takes_preorders: false,
    preorder_limit: null,
  },
  {
    title: 'Otter Knows the Way Home',
    author: 'Tomas Whitlow',
    description:
      'Little Otter drifts a bend too far down the river and has to find the way back before supper. ' +
      'Along the way she remembers everything her family taught her: follow the willows, listen for the waterfall, trust your whiskers. ' +
      'A gentle adventure about feeling brave even when you feel small.',
    price: '12.99',
    image_url: '/covers/otter-knows-the-way-home.svg',
    in_stock: 1,
    amazon_url: 'https://www.amazon.com/dp/1917342023',
    amazon_kindle_url: null,
    age_range: '3-5',
    pages: 32,
    published_on: '2024-03-05',
    takes_preorders: false,
    preorder_limit: null,
  },
  {
    title: 'Marigold Keeps the Lighthouse',
    author: 'Nell Okafor',
    description:
      'Marigold the ginger cat has one important job: to wake the lighthouse keeper when the fog rolls in. ' +
      'But on the stormiest night of the year the keeper is fast asleep in town, and Marigold must light the lamp herself. ' +
      'A cosy, salty tale of courage, responsibility and fish-shaped biscuits.',
    price: '14.99',
    image_url: '/covers/marigold-keeps-the-lighthouse.svg',
    in_stock: 10,
    amazon_url: 'https://www.amazon.com/dp/191734204X',
    amazon_kindle_url: 'https://www.amazon.com/dp/B0CZ8TRM3P',
    age_range: '4-7',
    pages: 40,
    published_on: '2024-04-16',
    takes_preorders: false,
    preorder_limit: null,
  },
  {
    title: 'A Kite Named Tuesday',
    author: 'Felix Brandt',
    description:
      'Nico builds a kite out of newspaper and ribbon and names it after the best day of the week. ' +
      'Tuesday has big ideas of its own, and soon it is tugging Nico across the whole town. ' +
      'A breezy, giggly read-aloud with a surprise on every page turn.',
    price: '8.99',
    image_url: '/covers/a-kite-named-tuesday.svg',
    in_stock: 0,
    amazon_url: COMING_SOON,
    amazon_kindle_url: COMING_SOON,
    age_range: '3-5',
    pages: 24,
    published_on: '2024-11-12',
    takes_preorders: false,
    preorder_limit: null,
  },
  {
    title: 'The Snail Who Raced the Rain',
    author: 'Priya Venkataraman',
    description:
      'Shelby the snail wants to reach the big puddle before the storm arrives, but everyone says snails are far too slow. ' +
      'With a little help from a ladybird and a very long leaf, Shelby finds her own way to be quick. ' +
      'A warm story about patience, friendship and splashing at the finish line.',
    price: '19.99',
    image_url: '/covers/the-snail-who-raced-the-rain.svg',
    in_stock: 11,
    amazon_url: 'https://www.amazon.com/dp/1917342058',
    amazon_kindle_url: COMING_SOON,
    age_range: '4-7',
    pages: 36,
    published_on: '2024-05-07',
    takes_preorders: false,
    preorder_limit: null,
  },
  {
    title: 'Goodnight, Little Lantern',
    author: 'Clara Fenwick',
    description:
      'As the village settles down to sleep, one little lantern makes its rounds to say goodnight to everyone. ' +
      'It glows for the baker, the fox in the hedge and the child who is not quite ready for bed. ' +
      'Our signature bedtime book, with soft rhymes made for reading aloud in a whisper.',
    price: '24.99',
    image_url: '/covers/goodnight-little-lantern.svg',
    in_stock: 37,
    amazon_url: 'https://www.amazon.com/dp/1917342066',
    amazon_kindle_url: 'https://www.amazon.com/dp/B0CT2NLX8D',
    age_range: '3-5',
    pages: 32,
    published_on: '2024-01-23',
    takes_preorders: false,
    preorder_limit: null,
  },
  {
    title: 'The Paper Boat Parade',
    author: 'Jonah Reyes',
    description:
      'After a week of rain, the whole street folds paper boats for a parade down the gutter stream. ' +
      "Ada's boat is wobbly and patched with stickers, but it has the best crew of bottle-cap sailors in town. " +
      'A cheerful celebration of neighbours, making things by hand and sailing on anyway. Includes a fold-your-own-boat guide.',
    price: '25.00',
    image_url: '/covers/the-paper-boat-parade.svg',
    in_stock: 6,
    amazon_url: 'https://www.amazon.com/dp/1917342074',
    amazon_kindle_url: null,
    age_range: '4-7',
    pages: 48,
    published_on: '2024-06-11',
    takes_preorders: false,
    preorder_limit: null,
  },
  {
    title: "Bramble Bear's Busy Winter",
    author: 'Hattie Lindqvist',
    description:
      'Bramble Bear is supposed to be hibernating, but there are far too many friends who need a hand. ' +
      "He clears snow for the rabbits, mends the squirrels' roof and judges the great icicle contest. " +
      "A big, cosy hardcover with a fold-out map of Bramble's wood.",
    price: '29.99',
    image_url: '/covers/bramble-bears-busy-winter.svg',
    in_stock: 15,
    amazon_url: null,
    amazon_kindle_url: 'https://www.amazon.com/dp/B0DH6PQ2VW',
    age_range: '4-7',
    pages: 48,
    published_on: '2024-10-01',
    takes_preorders: false,
    preorder_limit: null,
  },
  {
    title: 'Whistle and the Cloud Factory',
    author: 'Samir Haddad',
    description:
      'High above the town, a tiny bird called Whistle finds the factory where every cloud in the sky is made. ' +
      "When the machines start puffing out only grey drizzle, Whistle and the factory's grumpy night-watchman set out to fix them. " +
      'An illustrated first chapter book in eight short chapters, perfect for newly confident readers.',
    price: '34.99',
    image_url: '/covers/whistle-and-the-cloud-factory.svg',
    in_stock: 3,
    amazon_url: COMING_SOON,
    amazon_kindle_url: 'https://www.amazon.com/dp/B0DB9XKF4R',
    age_range: '6-9',
    pages: 96,
    published_on: '2024-08-20',
    takes_preorders: false,
    preorder_limit: null,
  },
  {
    title: 'The Big Book of Small Creatures',
    author: 'Edie Marsh',
    description:
      'Lift a leaf, peek under a stone and meet the tiny neighbours who keep our gardens growing. ' +
      'Beetles, bees, woodlice and worms each get a detailed, friendly spread packed with surprising facts. ' +
      'A richly illustrated nature treasury for curious young explorers.',
    price: '49.99',
    image_url: '/covers/the-big-book-of-small-creatures.svg',
    in_stock: 0,
    amazon_url: COMING_SOON,
    amazon_kindle_url: null,
    age_range: '6-9',
    pages: 128,
    published_on: '2024-09-17',
    takes_preorders: false,
    preorder_limit: null,
  },
  {
    title: 'Lantern Tales: The Bedtime Boxed Set',
    author: 'Clara Fenwick and friends',
    description:
      'Six of our best-loved bedtime stories, gathered in a sturdy keepsake box with a glow-in-the-dark lid. ' +
      'Includes Goodnight, Little Lantern, Pip and the Moon Garden and four more gentle tales for winding down. ' +
      'A gift to be read again and again, from the first picture books to the first chapter books.',
    price: '54.99',
    image_url: '/covers/lantern-tales-boxed-set.svg',
    in_stock: 8,
    amazon_url: 'https://www.amazon.com/dp/1917342104',
    amazon_kindle_url: null,
    age_range: '3-9',
    pages: 192,
    published_on: '2024-11-26',
    takes_preorders: false,
    preorder_limit: null,
  },
  {
    title: 'Juniper and the Midnight Fox',
    author: 'Aoife Brennan',
    description:
      'Juniper cannot sleep, and from her window she spots a fox sitting in the snow, looking right back at her. ' +
      'Every night the fox comes a little closer, until Juniper learns what it has been waiting for. ' +
      'A quiet, luminous winter story about kindness, patience and making an unlikely friend.',
    price: '14.99',
    image_url: '/covers/juniper-and-the-midnight-fox.svg',
    in_stock: 42,
    amazon_url: 'https://www.amazon.com/dp/1917342112',
    amazon_kindle_url: 'https://www.amazon.com/dp/B0DK3MZT6H',
    age_range: '4-7',
    pages: 40,
    published_on: '2024-10-22',
    takes_preorders: false,
    preorder_limit: null,
  },
  {
    title: 'Counting Stars with Grandpa Ade',
    author: 'Kemi Adeyemi',
    description:
      'On the warm flat roof of their building, Tayo and Grandpa Ade count the stars as they come out, one by one. ' +
      "Each number brings a story from Grandpa's childhood, and each story brings them a little closer. " +
      'A loving counting book from one to ten that ends with a sky too full to count.',
    price: '12.99',
    image_url: '/covers/counting-stars-with-grandpa-ade.svg',
    in_stock: 4,
    amazon_url: 'https://www.amazon.com/dp/1917342120',
    amazon_kindle_url: COMING_SOON,
    age_range: '3-5',
    pages: 28,
    published_on: '2024-07-09',
    takes_preorders: false,
    preorder_limit: null,
  },
  {
    title: 'The Dragon Who Collected Buttons',
    author: 'Milo Faraday',
    description:
      'Most dragons hoard gold, but Fennick hoards buttons: shiny ones, wooden ones and one shaped like a strawberry. ' +
      'When his favourite button goes missing, the whole village helps him search, and Fennick learns that sharing can be even better than collecting. ' +
      'Funny, warm and full of buttons to spot and count.',
    price: '16.99',
    image_url: '/covers/the-dragon-who-collected-buttons.svg',
    in_stock: 19,
    amazon_url: null,
    amazon_kindle_url: null,
    age_range: '4-7',
    pages: 36,
    published_on: '2024-06-25',
    takes_preorders: false,
    preorder_limit: null,
  },
  {
    title: 'Sailing to Teacup Island',
    author: 'Wren Castellano',
    description:
      'Mo and her little brother set sail in a bathtub boat for an island shaped exactly like a teacup. ' +
      'On the way they meet a seasick seagull, a whale who hums lullabies and a pirate who only steals biscuits. ' +
      'A short, funny chapter book about imagination, sibling teamwork and being home in time for tea.',
    price: '19.99',
    image_url: '/covers/sailing-to-teacup-island.svg',
    in_stock: 2,
    amazon_url: COMING_SOON,
    amazon_kindle_url: 'https://www.amazon.com/dp/B0D7LQW9CJ',
    age_range: '6-9',
    pages: 64,
    published_on: '2024-08-06',
    takes_preorders: false,
    preorder_limit: null,
  },
  {
    title: 'Olive Owl Says Good Morning',
    author: 'Benedict Sato',
    description:
      'Every owl in the wood goes to bed at sunrise, except Olive, who really wants to see what morning looks like. ' +
      'She stays up to greet the sun, the songbirds and a very surprised squirrel. ' +
      'A bright, bouncy story about trying something new, with rhymes little ones will soon join in with.',
    price: '9.99',
    image_url: '/covers/olive-owl-says-good-morning.svg',
    in_stock: 12,
    amazon_url: 'https://www.amazon.com/dp/1917342147',
    amazon_kindle_url: 'https://www.amazon.com/dp/B0CV5HDN2T',
    age_range: '3-5',
    pages: 24,
    published_on: '2024-03-26',
    takes_preorders: false,
    preorder_limit: null,
  },
];

// Two titles of the coming list taking pre-orders, dated from the seeding day so a fresh shop always
// shows them ahead: one without a limit, one whose small first print run is nearly taken.
const forthcoming: ForthcomingSeed[] = [
  {
    title: 'The Hedgehog Who Wanted Snow',
    author: 'Isla Moreno',
    description:
      'Every winter Quill the hedgehog curls up to sleep just before the first snow falls, and every spring his friends tell him how wonderful it was. ' +
      'This year Quill is determined to stay awake long enough to see it for himself, with the help of a chatty robin and a great many cups of acorn cocoa. ' +
      'A tender, funny winter story about waiting, wishing and the magic of the very first snowflake.',
    price: '15.99',
    image_url: '/covers/the-hedgehog-who-wanted-snow.svg',
    in_stock: 0,
    amazon_url: COMING_SOON,
    amazon_kindle_url: COMING_SOON,
    age_range: '3-5',
    pages: 32,
    out_in_days: 45,
    takes_preorders: true,
    preorder_limit: null,
  },
  {
    title: 'The Library at the Bottom of the Sea',
    author: 'Marcus Oyelaran',
    description:
      'Deep beneath the waves, an octopus named Ink looks after a library for fish, with a book for every tide. ' +
      'When a curious girl in a yellow diving suit sinks down to borrow one, Ink must decide whether his favourite stories are safe with a land-dweller. ' +
      'A gentle underwater adventure about sharing, reading together and making room for newcomers.',
    price: '17.99',
    image_url: '/covers/the-library-at-the-bottom-of-the-sea.svg',
    in_stock: 0,
    amazon_url: COMING_SOON,
    amazon_kindle_url: null,
    age_range: '4-7',
    pages: 40,
    out_in_days: 100,
    takes_preorders: true,
    preorder_limit: 4,
  },
];

/** "2026-11-28" plus `days`, as a calendar day. */
function daysAfter(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** The seed catalogue as it is written on `today` ("2026-11-28"): the forthcoming titles come out after it. */
export function seedBooks(today: string): SeedBook[] {
  return [...published, ...forthcoming.map(({ out_in_days, ...book }) => ({ ...book, published_on: daysAfter(today, out_in_days) }))];
}

/**
 * Inserts the seed catalogue when the `books` table is empty, dated from `today`, the shop's day
 * (today in UTC when not given). Returns how many books it inserted: 0 when the catalogue already has books.
 */
export async function seedCatalogue(db: Knex, today: string = new Date().toISOString().slice(0, 10)): Promise<number> {
  const books = seedBooks(today);
  return db.transaction(async (trx) => {
    // Servers starting together on a new database take turns here, so only the first one seeds.
    await trx('catalogueVersion').where({ id: 1 }).forUpdate().first();
    const existing = await trx('books').count({ n: '*' }).first();
    if (Number(existing?.n ?? 0) > 0) return 0;
    await trx('books').insert(books.map((book) => ({ ...book })));
    await bumpCatalogueVersion(trx);
    return books.length;
  });
}
