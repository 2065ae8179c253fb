// The header's cart badge: the item count, or '99+' above 99 (docs/architecture.md, "Carts").
export const BADGE_CAP = 99;

export function cartBadgeText(count: number): string {
  return count > BADGE_CAP ? `${BADGE_CAP}+` : String(count);
}
