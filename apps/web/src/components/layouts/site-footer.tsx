import { lazy, Suspense, useEffect } from 'react';
import { Link } from 'react-router';
import { BrandMark, BrandName } from '../brand-mark.tsx';
import { Container } from '../ui/page.tsx';
import { paths } from '../../config/paths.ts';
import { FOOTER_NAV } from './nav-links.ts';

// The shop's facts (about and contact; company, 統一編號, marks, links, 「Cookie 設定」): the server
// renders them into every page; in the browser their code is fetched at the visitor's first scroll
// (the footer is always below the fold: the page above it is at least a screen tall), and React
// meanwhile keeps the server's HTML of them as it is. So no page's first load carries their script
// (docs/decisions/042).
let ask = () => {};
const asked = import.meta.env.SSR ? Promise.resolve() : new Promise<void>((resolve) => (ask = resolve));
const Part = lazy(() => asked.then(() => import('./footer-facts.tsx')));

export function SiteFooter() {
  useEffect(() => addEventListener('scroll', ask, { once: true, passive: true }), []);
  return (
    <footer className="mt-16 border-t border-line bg-surface">
      <Container className="grid grid-cols-2 gap-x-6 gap-y-10 py-12 lg:grid-cols-[1.4fr_1fr_1fr_1fr]">
        <div className="col-span-2 flex flex-col gap-4 lg:col-span-1">
          <Link to={paths.landing()} className="flex items-center gap-3 self-start">
            <BrandMark className="size-10" />
            <BrandName />
          </Link>
          <Suspense fallback={null}>
            <Part about />
          </Suspense>
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
      <Suspense fallback={null}>
        <Part />
      </Suspense>
    </footer>
  );
}
