import { Link } from 'react-router';
import { BRAND } from '@shop/shared/brand';
import { BrandMark, BrandName } from '../brand-mark.tsx';
import { Container } from '../ui/page.tsx';
import { paths } from '../../config/paths.ts';
import { FOOTER_NAV } from './nav-links.ts';

export function SiteFooter() {
  return (
    <footer className="mt-16 border-t border-line bg-surface">
      <Container className="grid grid-cols-2 gap-x-6 gap-y-10 py-12 lg:grid-cols-[1.4fr_1fr_1fr_1fr]">
        <div className="col-span-2 flex flex-col gap-4 lg:col-span-1">
          <Link to={paths.landing()} className="flex items-center gap-3 self-start">
            <BrandMark className="size-10" />
            <BrandName />
          </Link>
          <p className="max-w-xs text-sm text-ink-muted">
            {BRAND.founded}{' '}
            年創立於南投鹿谷的家族茶行。以炭火慢焙高山烏龍，也把泡好一壺茶的方法，分享給每一位喝茶的人。
          </p>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm text-ink-muted">
            <dt>客服信箱</dt>
            <dd>
              <a href={`mailto:${BRAND.email}`} className="text-tea hover:underline">
                {BRAND.email}
              </a>
            </dd>
            <dt>客服電話</dt>
            <dd className="tabular">{BRAND.phone}</dd>
            <dt>服務時間</dt>
            <dd>{BRAND.serviceHours}</dd>
          </dl>
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
      <div className="border-t border-line">
        <Container className="flex flex-col gap-1 py-5 text-xs text-ink-muted sm:flex-row sm:justify-between">
          <p>
            © {new Date().getFullYear()} {BRAND.name} {BRAND.nameLatin}. 版權所有。
          </p>
          <p>{BRAND.address}</p>
        </Container>
      </div>
    </footer>
  );
}
