import { lazy, Suspense, useEffect } from 'react';
import { Link } from 'react-router';
import { BrandMark, BrandName } from '../brand-mark.tsx';
import { Container } from '../ui/page.tsx';
import { paths } from '../../config/paths.ts';
import { FOOTER_NAV } from './nav-links.ts';

// The shop's facts (about and contact; company, 統一編號, marks, links, 「Cookie 設定」): the server
// renders them into every page. In the browser they are not hydrated: their HTML stays as the
// server drew it until the visitor's first scroll (the footer is always below the fold: the page
// above it is at least a screen tall) fetches their code, which takes each part over in a React
// root of its own (footer-facts.tsx). So no page's first load carries their script
// (docs/decisions/042). Not a Suspense boundary waiting for the code: that would hold up every
// navigation (a transition waits for a suspended part).
const ServerPart = import.meta.env.SSR ? lazy(() => import('./footer-facts.tsx')) : null;

function Part({ about, className }: { about?: boolean; className?: string }) {
  const id = about ? 'shop-about' : 'shop-facts';
  return import.meta.env.SSR ? (
    <div id={id} className={className}>
      <Suspense>{ServerPart && <ServerPart about={about} />}</Suspense>
    </div>
  ) : (
    // What is in the element now (the server's HTML, or the part's own root later) is kept as it is.
    <div
      id={id}
      className={className}
      suppressHydrationWarning
      dangerouslySetInnerHTML={{ __html: document.getElementById(id)?.innerHTML ?? '' }}
    />
  );
}

export function SiteFooter() {
  useEffect(
    () =>
      addEventListener('scroll', () => void import('./footer-facts.tsx').then((m) => m.takeOver()), {
        once: true,
        passive: true,
      }),
    [],
  );
  return (
    <footer className="mt-16 border-t border-line bg-surface">
      <Container className="grid grid-cols-2 gap-x-6 gap-y-10 py-12 lg:grid-cols-[1.4fr_1fr_1fr_1fr]">
        <div className="col-span-2 flex flex-col gap-4 lg:col-span-1">
          <Link to={paths.landing()} className="flex items-center gap-3 self-start">
            <BrandMark className="size-10" />
            <BrandName />
          </Link>
          <Part about className="flex flex-col gap-4" />
        </div>
        {FOOTER_NAV.map((group) => (
          <nav key={group.title} aria-label={group.title}>
            <h2 className="mb-3 text-sm font-semibold tracking-wider text-ink">{group.title}</h2>
            <ul className="flex flex-col gap-1">
              {group.links.map((link) => (
                <li key={link.to}>
                  <Link
                    to={link.to}
                    className="inline-flex min-h-9 items-center text-sm text-ink-muted hover:text-tea"
                  >
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </Container>
      <Part />
    </footer>
  );
}
