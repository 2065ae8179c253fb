// The shop's prices, in cents (docs/architecture.md, "Prices and shipping"). Page text is generated from these.
export const FREE_SHIPPING_THRESHOLD_CENTS = 50_00;
export const REDUCED_SHIPPING_THRESHOLD_CENTS = 25_00;
export const REDUCED_SHIPPING_CENTS = 4_99;
export const STANDARD_SHIPPING_CENTS = 7_99;
export const HANDLING_CENTS = 2_50;
