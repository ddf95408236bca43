import type { ReactNode } from 'react';
import { BrandMark } from '../../../components/brand-mark.tsx';

/** The frame of the sign-in pages: a calm card, centred, with the brand mark and a title. */
export function AuthCard({
  title,
  lead,
  children,
  footer,
}: {
  title: string;
  lead?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className="mx-auto flex w-full max-w-[460px] flex-col gap-6 px-4 py-10 sm:py-16">
      <div className="rounded-xl border border-line bg-surface px-5 py-8 shadow-card sm:px-8">
        <div className="mb-6 flex flex-col items-center gap-3 text-center">
          <BrandMark className="size-11" />
          <h1 className="font-serif text-2xl text-ink">{title}</h1>
          {/* Balanced lines, broken between phrases: a centred lead never leaves one or two characters alone on its last line. */}
          {lead && <div className="text-sm text-balance break-keep wrap-anywhere text-ink-muted">{lead}</div>}
        </div>
        {children}
      </div>
      {footer && <div className="text-center text-sm text-ink-muted">{footer}</div>}
    </div>
  );
}
