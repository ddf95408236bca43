import { PRODUCT_STATUS_LABELS, type ProductStatus } from '@shop/shared/admin-products';
import { Badge, type BadgeTone } from '../../../components/ui/badge.tsx';

const STATUS_TONES: Record<ProductStatus, BadgeTone> = {
  active: 'success',
  draft: 'neutral',
  archived: 'amber',
};

export function ProductStatusBadge({ status }: { status: ProductStatus }) {
  return (
    <Badge tone={STATUS_TONES[status]} className="whitespace-nowrap">
      {PRODUCT_STATUS_LABELS[status]}
    </Badge>
  );
}

/** 「缺貨」 when nothing is left, 「庫存偏低」 when some variant is at or below its threshold. */
export function StockBadge({ stock, low }: { stock: number; low: boolean }) {
  if (stock <= 0)
    return (
      <Badge tone="danger" className="whitespace-nowrap">
        缺貨
      </Badge>
    );
  if (low)
    return (
      <Badge tone="amber" className="whitespace-nowrap">
        庫存偏低
      </Badge>
    );
  return null;
}

/** +12 / −3 with a real minus sign, for stock changes. */
export const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${Math.abs(n)}` : '0');
