import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useParams } from 'react-router';
import type { MasterView, TeamMemberView } from '@shop/shared/content-views';
import { contentEditorPath } from '@shop/shared/content-preview';
import { NOT_FOUND_TITLE } from '@shop/shared/routes';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { Container, PageHeader } from '../../../components/ui/page.tsx';
import { textLinkClass } from '../../../components/ui/text-link.tsx';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { contentQueries } from '../api/content-api.ts';
import { ContentState } from './content-state.tsx';
import { PreviewBanner } from './preview-banner.tsx';
import type { PreviewMode } from '../hooks/use-preview-mode.ts';

type Person = (TeamMemberView | MasterView) & { title?: string; role?: string };

function Portrait({ p, size }: { p: Person; size: string }) {
  return (
    <img
      src={p.portrait.src}
      srcSet={p.portrait.srcSet}
      sizes={size}
      width={p.portrait.width}
      height={p.portrait.height}
      alt={p.portrait.alt}
      className="aspect-square w-full rounded-xl border border-line bg-surface object-cover"
      loading="lazy"
    />
  );
}

function PeopleList({
  people,
  href,
  note,
  signedIn,
}: {
  people: Person[];
  href(slug: string): string;
  note: string;
  signedIn: boolean;
}) {
  const { pathname } = useLocation();
  return (
    <>
      {!signedIn && (
        <p className="mt-6 text-sm text-ink-muted">
          {note}
          <Link to={paths.login(pathname)} className={textLinkClass}>
            登入會員
          </Link>
          。
        </p>
      )}
      <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {people.map((p) => (
          <li key={p.slug} className="flex flex-col gap-3">
            <Portrait p={p} size="(min-width: 1024px) 360px, (min-width: 640px) 50vw, 100vw" />
            <p className="text-xs tracking-widest text-tea">{p.title ?? p.role}</p>
            <h2 className="font-serif text-xl">
              <Link to={href(p.slug)} className="hover:text-tea">
                {p.name}
              </Link>
            </h2>
            <p className="text-sm text-ink-muted">{p.summary}</p>
          </li>
        ))}
      </ul>
    </>
  );
}

/** In preview, links to a person keep the preview flag. */
const withPreview = (href: (slug: string) => string, preview: boolean) => (slug: string) =>
  preview ? `${href(slug)}?preview=1` : href(slug);

/** Whether the visitor is signed in (members see the whole story) and the preview mode. */
interface PeoplePageProps {
  preview: PreviewMode;
  signedIn: boolean;
}

/** A master's recommended products, drawn by the catalog; the route supplies it. */
export type ProductsSlot = (products: NonNullable<MasterView['products']>) => ReactNode;

export function TeamPage({ preview, signedIn }: PeoplePageProps) {
  const team = useQuery(contentQueries.team(preview.requested));
  return (
    <>
      <PreviewBanner active={preview.active} editor="/admin/content/team" />
      <Container className="py-10 sm:py-14">
        <PageHeader
          eyebrow="山嵐的夥伴"
          title="團隊介紹"
          lead="從茶園、焙茶室到網路商店，每一包茶背後都有這些人。"
        />
        <ContentState query={team}>
          {(people) => (
            <PeopleList
              people={people}
              href={withPreview(paths.teamMember, preview.active)}
              note="想認識每一位夥伴的故事，請"
              signedIn={signedIn}
            />
          )}
        </ContentState>
      </Container>
    </>
  );
}

export function MastersPage({ preview, signedIn }: PeoplePageProps) {
  const masters = useQuery(contentQueries.masters(preview.requested));
  return (
    <>
      <PreviewBanner active={preview.active} editor="/admin/content/master" />
      <Container className="py-10 sm:py-14">
        <PageHeader eyebrow="茶師" title="茶師介紹" lead="焙茶、評茶、教學與製壺：守著山嵐味道的師傅們。" />
        <ContentState query={masters}>
          {(people) => (
            <PeopleList
              people={people}
              href={withPreview(paths.masterDetail, preview.active)}
              note="師傅的完整介紹與推薦茶品，請"
              signedIn={signedIn}
            />
          )}
        </ContentState>
      </Container>
    </>
  );
}

function Detail({
  person,
  products,
  renderProducts,
  back,
}: {
  person: Person & {
    bio: string[];
    specialties?: string[];
    quote?: string;
    favouriteTea?: string;
    years?: number;
  };
  products?: MasterView['products'];
  renderProducts?: ProductsSlot;
  back: { href: string; label: string };
}) {
  return (
    <div className="flex flex-col gap-10">
      <Link to={back.href} className={`${textLinkClass} self-start text-sm`}>
        ← {back.label}
      </Link>
      <div className="grid gap-8 md:grid-cols-[320px_1fr]">
        <Portrait p={person} size="320px" />
        <div className="flex flex-col gap-4">
          <p className="text-sm tracking-widest text-tea">{person.title ?? person.role}</p>
          <h1 className="font-serif text-3xl">{person.name}</h1>
          {person.years !== undefined && <p className="text-ink-muted">從事茶業 {person.years} 年</p>}
          {person.quote && (
            <blockquote className="border-l-4 border-amber/60 bg-amber-soft/50 px-5 py-3 font-serif">
              「{person.quote}」
            </blockquote>
          )}
          {person.bio.map((para) => (
            <p key={para.slice(0, 20)} className="leading-[1.85]">
              {para}
            </p>
          ))}
          {person.specialties && (
            <ul className="flex flex-wrap gap-2" aria-label="專長">
              {person.specialties.map((s) => (
                <li key={s} className="rounded-full border border-line bg-surface px-3 py-1 text-sm">
                  {s}
                </li>
              ))}
            </ul>
          )}
          {person.favouriteTea && <p className="text-sm text-ink-muted">最喜歡的茶：{person.favouriteTea}</p>}
        </div>
      </div>
      {products && products.length > 0 && (
        <section aria-labelledby="related">
          <h2 id="related" className="mb-6 font-serif text-2xl">
            師傅推薦
          </h2>
          {renderProducts?.(products)}
        </section>
      )}
    </div>
  );
}

function NotFound({ back }: { back: { href: string; label: string } }) {
  return (
    <EmptyState
      title="找不到這位成員"
      description="頁面可能已經移除或網址有誤。"
      action={<ButtonLink to={back.href}>{back.label}</ButtonLink>}
    />
  );
}

export function TeamMemberPage({ preview }: { preview: PreviewMode }) {
  const { memberId = '' } = useParams();
  const query = useQuery(contentQueries.teamMember(memberId, preview.requested));
  usePageTitle(
    query.data?.name ??
      (query.error instanceof ApiError && query.error.status === 404 ? NOT_FOUND_TITLE : undefined),
  );
  const back = { href: preview.active ? `${paths.team()}?preview=1` : paths.team(), label: '回團隊介紹' };
  return (
    <>
      <PreviewBanner active={preview.active} editor={contentEditorPath('team', memberId)} />
      <Container className="py-10 sm:py-14">
        {query.error instanceof ApiError && query.error.status === 404 ? (
          <NotFound back={back} />
        ) : (
          <ContentState query={query}>{(p) => <Detail person={p} back={back} />}</ContentState>
        )}
      </Container>
    </>
  );
}

export function MasterPage({
  preview,
  renderProducts,
}: {
  preview: PreviewMode;
  renderProducts: ProductsSlot;
}) {
  const { masterId = '' } = useParams();
  const query = useQuery(contentQueries.master(masterId, preview.requested));
  usePageTitle(
    query.data?.name ??
      (query.error instanceof ApiError && query.error.status === 404 ? NOT_FOUND_TITLE : undefined),
  );
  const back = { href: preview.active ? `${paths.master()}?preview=1` : paths.master(), label: '回茶師介紹' };
  return (
    <>
      <PreviewBanner active={preview.active} editor={contentEditorPath('master', masterId)} />
      <Container className="py-10 sm:py-14">
        {query.error instanceof ApiError && query.error.status === 404 ? (
          <NotFound back={back} />
        ) : (
          <ContentState query={query}>
            {(p) => <Detail person={p} products={p.products} renderProducts={renderProducts} back={back} />}
          </ContentState>
        )}
      </Container>
    </>
  );
}
