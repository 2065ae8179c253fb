// @ts-check

/**
 * Which feature folders may import which, each pair with its reason. A feature is a folder
 * under src/features/, or under src/features/admin/. An import from one feature into another
 * that is not listed here fails `npm run lint` (lint/feature-imports.js), and
 * test/features/dependencies.test.ts keeps the list free of loops and of pairs nothing uses.
 *
 * Read from the bottom up it is the shop's layering: catalog, mail, payments and pricing need
 * no other feature; when two features need one piece, it lives in the lower of them.
 * Plain JavaScript, because eslint.config.js loads it without a TypeScript loader.
 *
 * @type {Readonly<Record<string, Readonly<Record<string, string>>>>}
 */
export const FEATURE_DEPENDENCIES = {
  accounts: {
    cart: "signing in joins the visitor's cart to the account's; the dashboard puts an old order back in the cart",
    mail: 'welcome, reset and lockout messages are mailed',
    orders: "the dashboard lists the parent's orders",
  },
  'admin/access': {
    accounts: 'operators are accounts with a role; the second factor follows the password',
    cart: "passing the second factor finishes a sign-in, which joins the visitor's cart to the account's",
  },
  'admin/books': {
    'admin/access': 'its pages are for operators past the second factor',
    orders: 'moving a publication date emails the parents whose pre-orders wait for the title',
    'admin/settings': 'the low-stock view reads the threshold an operator set',
    'back-in-stock': 'restocking a book mails the parents waiting for it',
    catalog: 'it edits the books the catalogue shows, and tells the page cache',
    covers: "a cover's files are written where covers are kept before a book points at them, and deleted once none does",
  },
  'admin/inbox': {
    accounts: 'the unread count in the admin navigation is shown to signed-in operators only',
    'admin/access': 'its pages are for operators past the second factor',
  },
  'admin/numbers': {
    'admin/access': 'its pages are for operators past the second factor',
    catalog: "the books file has a column for each field the catalogue's books have",
    orders: 'exports name each order by the status customers see',
  },
  'admin/orders': {
    'admin/access': 'its pages are for operators past the second factor',
    catalog: 'a refund puts copies back on sale, which the page cache must hear of',
    mail: 'shipping and refunds are mailed to the parent',
    checkout: "a pre-order is served from stock on publication day in the lock order, its delivery estimated as a new order's",
    orders: 'it moves orders through the same statuses and carriers customers see',
    payments: 'refunds and payment details go through the payment provider',
  },
  'admin/preorders': {
    'admin/access': 'its pages are for operators past the second factor',
    catalog: "a title is forthcoming, and has pre-order copies left, by the catalogue's pre-order rules",
  },
  'admin/privacy': {
    'admin/access': 'its pages are for operators past the second factor',
    privacy: 'the operator runs the download and the erasure a parent can run, for a parent who writes in',
  },
  'admin/settings': {
    'admin/access': 'its pages are for operators past the second factor',
  },
  'admin/status': {
    accounts: 'the status API checks the operator itself, as JSON routes have no page guard',
    'admin/access': 'its pages are for operators past the second factor',
    'admin/numbers': 'the admin home shows the sales figures under the shop status',
    covers: 'it reports where covers are kept and whether their bucket answers',
    mail: 'it reports whether mail can be sent',
    payments: 'it reports the payment provider and lists the sandbox test cards',
  },
  'back-in-stock': {
    accounts: 'a waiting parent gives an email address checked as at sign-up',
    catalog: 'parents wait for a book of the catalogue',
    mail: 'the notice is mailed',
  },
  cart: {
    catalog: 'a cart holds catalogue books, at most the per-title limit of each',
  },
  checkout: {
    accounts: 'a visitor signs up while checking out; the shipping address is kept on the account',
    cart: 'checkout buys what the cart holds',
    catalog: 'stock held for a checkout changes what the catalogue shows',
    discounts: 'a discount code lowers the total',
    mail: 'the confirmation and the shop notice are mailed',
    orders: 'a paid checkout becomes an order',
    payments: 'the card is charged through the payment provider',
    pricing: 'totals, shipping and tax come from the price rules',
  },
  contact: {
    mail: 'a message is acknowledged to the parent and passed on to the shop',
  },
  discounts: {
    'admin/access': 'its pages are for operators past the second factor',
    pricing: 'a code changes totals by the price rules',
  },
  ops: {
    catalog: 'the sitemap lists the catalogue',
  },
  orders: {
    catalog: "a pre-order's story names the day its titles come out, by the catalogue's pre-order rules",
    payments: "an order's payment status is read from the provider",
    mail: 'a moved publication date is mailed to the parents whose pre-orders wait for it',
    pricing: 'an order shows its breakdown by the price rules',
  },
  privacy: {
    accounts: "a download or a deletion asks for the account's password again; its pages are the dashboard's, for signed-in parents",
    checkout:
      "an erasure takes the account's row lock, first in the checkout's lock order, so no payment starts or finishes for it meanwhile",
    mail: "the erasure's confirmation is mailed",
    orders: 'the download names each order by the status parents see',
    payments: "the payment provider's record of the customer goes with the account",
  },
  session: {
    accounts: 'the header shows who is signed in',
    cart: 'the header shows the cart badge',
  },
  site: {
    catalog: 'the home page shows books of the catalogue',
    pricing: 'the home page states the free-shipping threshold',
  },
};
