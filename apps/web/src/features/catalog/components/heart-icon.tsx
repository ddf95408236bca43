/** The 收藏 heart: outlined, or filled when the product is kept. */
export function HeartIcon({ filled = false, className }: { filled?: boolean; className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      className={className}
      fill={filled ? 'currentColor' : 'none'}
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d="M12 20.5 4.2 12.7a4.9 4.9 0 0 1 7.8-6.1 4.9 4.9 0 0 1 7.8 6.1Z" />
    </svg>
  );
}

/** The heart's round button look, on a card's picture (`card`) or beside a product's name (`page`). */
export const heartClass = (place: 'card' | 'page') =>
  place === 'card'
    ? 'relative z-10 flex size-10 items-center justify-center rounded-full bg-surface/90 text-ink shadow-sm hover:text-danger'
    : 'flex size-11 shrink-0 items-center justify-center rounded-full border border-line bg-surface text-ink hover:text-danger';
