import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router';
import { BRAND } from '@shop/shared/brand';
import { contentEditorPath } from '@shop/shared/content-preview';
import { ButtonLink } from '../../components/ui/button.tsx';
import { Marquee } from '../../components/ui/marquee.tsx';
import { Container } from '../../components/ui/page.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { paths } from '../../config/paths.ts';
import { useIsLogin } from '../../features/auth/stores/user-store.ts';
import {
  ProductCard,
  ProductCardSkeleton,
  ProductGrid,
} from '../../features/catalog/components/product-card.tsx';
import { contentQueries } from '../../features/content/api/content-api.ts';
import { formatDate } from '../../features/content/components/format.ts';
import { PreviewBanner } from '../../features/content/components/preview-banner.tsx';
import { usePreviewMode } from '../../features/content/hooks/use-preview-mode.ts';
// The hero's hills: a hashed picture file, cached for good, instead of markup in the first page's
// code (its JavaScript has a budget, e2e/budget.spec.ts; the box keeps the picture's 4:3 shape).
import hillsUrl from './landing-hills.svg?no-inline';

/** The storefront's front page, from the content the owner edits. Scrolls to the top on every visit (docs/product-rules.md#routes-and-guards). */
export default function Landing() {
  const location = useLocation();
  const isLogin = useIsLogin();
  const preview = usePreviewMode(isLogin);
  const landing = useQuery(contentQueries.landing(preview.requested));
  useEffect(() => {
    window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
  }, [location.key]);
  const data = landing.data;

  return (
    <>
      <PreviewBanner active={preview.active} editor={contentEditorPath('landing', 'landing')} />
      {data && <Marquee label="最新消息" items={data.page.announcements} />}
      <section className="border-b border-line">
        <Container className="grid items-center gap-10 py-12 sm:py-16 lg:grid-cols-[1.1fr_1fr] lg:py-20">
          <div className="flex flex-col gap-6">
            <p className="text-sm font-medium tracking-[0.3em] text-tea">南投鹿谷・自 {BRAND.founded} 年</p>
            <h1 className="font-serif text-[2rem] leading-tight text-ink sm:text-5xl sm:leading-[1.25]">
              {data?.page.heroTitle ?? BRAND.name}
            </h1>
            {data ? (
              <p className="max-w-xl text-lg text-ink-muted">{data.page.heroLead}</p>
            ) : (
              <Skeleton className="h-16 max-w-xl" />
            )}
            <div className="flex flex-wrap gap-3">
              <ButtonLink to={paths.mall()} size="lg">
                逛逛商城
              </ButtonLink>
              <ButtonLink to={paths.home()} variant="secondary" size="lg">
                認識山嵐
              </ButtonLink>
            </div>
          </div>
          <div className="aspect-[4/3] overflow-hidden rounded-2xl border border-line shadow-card">
            <img
              src={hillsUrl}
              alt="霧中層疊的茶山"
              width={560}
              height={420}
              fetchPriority="high"
              className="size-full"
            />
          </div>
        </Container>
      </section>

      {data && (
        <section aria-labelledby="promises" className="py-14 sm:py-20">
          <Container>
            <h2 id="promises" className="font-serif text-2xl text-ink sm:text-3xl">
              我們堅持的三件事
            </h2>
            <ul className="mt-8 grid gap-6 sm:grid-cols-3">
              {data.page.promises.map((p, i) => (
                <li key={p.title} className="flex flex-col gap-3 border-t-2 border-tea pt-5">
                  <span className="tabular font-serif text-sm text-[#8a5a2a]">0{i + 1}</span>
                  <h3 className="text-xl text-ink">{p.title}</h3>
                  <p className="text-ink-muted">{p.text}</p>
                </li>
              ))}
            </ul>
          </Container>
        </section>
      )}

      <section aria-labelledby="featured" className="border-y border-line bg-surface py-14 sm:py-20">
        <Container>
          <div className="flex flex-wrap items-end justify-between gap-4">
            <h2 id="featured" className="font-serif text-2xl text-ink sm:text-3xl">
              當季推薦
            </h2>
            <Link to={paths.mall()} className="text-tea underline-offset-4 hover:underline">
              查看全部商品 →
            </Link>
          </div>
          <div className="mt-8">
            <ProductGrid>
              {data
                ? data.products.slice(0, 4).map((p) => (
                    <li key={p.id}>
                      <ProductCard product={p} heart={isLogin ? 'member' : 'visitor'} />
                    </li>
                  ))
                : Array.from({ length: 4 }, (_, i) => (
                    <li key={i}>
                      <ProductCardSkeleton />
                    </li>
                  ))}
            </ProductGrid>
          </div>
        </Container>
      </section>

      {data && data.masters.length > 0 && (
        <section aria-labelledby="masters" className="py-14 sm:py-20">
          <Container>
            <div className="flex flex-wrap items-end justify-between gap-4">
              <h2 id="masters" className="font-serif text-2xl text-ink sm:text-3xl">
                守著焙籠的師傅
              </h2>
              <Link to={paths.master()} className="text-tea underline-offset-4 hover:underline">
                認識所有茶師 →
              </Link>
            </div>
            <ul className="mt-8 grid gap-6 sm:grid-cols-3">
              {data.masters.map((m) => (
                <li key={m.slug} className="flex gap-4 rounded-xl border border-line bg-surface p-5">
                  <img
                    src={m.portrait.src}
                    srcSet={m.portrait.srcSet}
                    sizes="80px"
                    width={m.portrait.width}
                    height={m.portrait.height}
                    alt={m.portrait.alt}
                    loading="lazy"
                    className="size-20 shrink-0 rounded-full bg-paper object-cover"
                  />
                  <div className="flex flex-col gap-1">
                    <p className="text-xs tracking-widest text-tea">{m.title}</p>
                    <h3 className="font-serif text-lg">{m.name}</h3>
                    <p className="text-sm text-ink-muted">{m.summary}</p>
                  </div>
                </li>
              ))}
            </ul>
          </Container>
        </section>
      )}

      {data && data.media.length > 0 && (
        <section aria-labelledby="media" className="border-t border-line py-14 last:pb-0 sm:py-20">
          <Container>
            <div className="flex flex-wrap items-end justify-between gap-4">
              <h2 id="media" className="font-serif text-2xl text-ink sm:text-3xl">
                媒體報導
              </h2>
              <Link to={paths.media()} className="text-tea underline-offset-4 hover:underline">
                更多報導 →
              </Link>
            </div>
            <ul className="mt-8 grid gap-4 sm:grid-cols-3">
              {data.media.map((m) => (
                <li key={m.slug} className="flex flex-col gap-2 rounded-xl border border-line bg-surface p-5">
                  <p className="text-xs text-ink-muted">
                    {m.source}・<span className="tabular">{formatDate(m.date)}</span>
                  </p>
                  <h3 className="font-medium">{m.title}</h3>
                  <p className="line-clamp-3 text-sm text-ink-muted">{m.summary}</p>
                </li>
              ))}
            </ul>
          </Container>
        </section>
      )}

      {/* Inside the page's gutters, as wide as the grids above; the footer's margin is the space below. */}
      {!isLogin && (
        <Container>
          <section className="flex flex-col items-start gap-5 rounded-2xl bg-tea px-6 py-10 text-white sm:flex-row sm:items-center sm:justify-between sm:px-10">
            <div className="flex flex-col gap-2">
              <h2 className="font-serif text-2xl">{data?.page.joinTitle ?? '加入山嵐會員'}</h2>
              <p className="text-white/90">{data?.page.joinText ?? '註冊即可進入線上商城選購。'}</p>
            </div>
            <Link
              to={paths.register()}
              className="inline-flex min-h-12 items-center rounded-md bg-paper px-7 text-lg font-medium text-tea-dark hover:bg-white"
            >
              免費註冊
            </Link>
          </section>
        </Container>
      )}
    </>
  );
}
