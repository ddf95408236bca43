import { BRAND } from '@shop/shared/brand';

/** The brand's mark: layered hills and a low sun, drawn in the palette. */
export function BrandMark({ className = 'size-9' }: { className?: string }) {
  return (
    <svg viewBox="0 0 64 64" className={className} aria-hidden="true">
      <rect width="64" height="64" rx="14" className="fill-tea" />
      <path d="M8 46 L22 28 L31 38 L41 24 L56 46 Z" className="fill-paper" />
      <path d="M8 46 L22 34 L30 42 L8 46 Z" className="fill-tea-soft" opacity="0.9" />
      <circle cx="47" cy="16" r="5" className="fill-amber" />
    </svg>
  );
}

export function BrandName() {
  return (
    <span className="flex flex-col leading-none">
      <span className="font-serif text-lg font-semibold tracking-[0.2em] whitespace-nowrap text-ink">
        {BRAND.name}
      </span>
      <span className="mt-1 text-[0.625rem] tracking-[0.3em] whitespace-nowrap text-ink-muted uppercase">
        {BRAND.nameLatin}
      </span>
    </span>
  );
}
