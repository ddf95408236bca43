import { useId, useState, type FormEvent } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { BrandMark, BrandName } from '../brand-mark.tsx';
import { cn } from '../ui/cn.ts';
import { Container } from '../ui/page.tsx';
import { LOGIN_PATH, REDIRECT_PARAM } from '@shop/shared/routes';
import { paths } from '../../config/paths.ts';
import { MAIN_NAV } from './nav-links.ts';

const iconButton =
  'relative inline-flex size-11 items-center justify-center rounded-md text-ink hover:bg-ink/5 aria-expanded:bg-ink/5';

export interface SiteHeaderProps {
  /** Items in the cart; the cart feature supplies it. */
  cartCount: number;
  /** Whether a member is signed in; the auth feature supplies it through the app's layout. */
  isLogin: boolean;
}

/**
 * 登入 from any page comes back to it; on the sign-in or sign-up page the link keeps the way back
 * that page already carries.
 */
function loginLink(pathname: string, search: string): string {
  if (pathname === LOGIN_PATH || pathname === paths.register())
    return paths.login(new URLSearchParams(search).get(REDIRECT_PARAM) ?? undefined);
  return paths.login(pathname === '/' ? undefined : `${pathname}${search}`);
}

export function SiteHeader({ cartCount, isLogin }: SiteHeaderProps) {
  const location = useLocation();
  const navigate = useNavigate();
  // A panel belongs to the page it was opened on, so it is closed once the route changes.
  const [panel, setPanel] = useState<{ kind: 'menu' | 'search'; path: string } | null>(null);
  const menuOpen = panel?.kind === 'menu' && panel.path === location.pathname;
  const searchOpen = panel?.kind === 'search' && panel.path === location.pathname;
  const toggle = (kind: 'menu' | 'search', open: boolean) =>
    setPanel(open ? null : { kind, path: location.pathname });
  const menuId = useId();
  const searchId = useId();

  const onSearch = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const q = String(new FormData(event.currentTarget).get('q') ?? '').trim();
    void navigate(paths.mall({ q }));
  };

  return (
    <header
      className="sticky top-0 z-40 border-b border-line bg-paper/95 backdrop-blur supports-[backdrop-filter]:bg-paper/85"
      // Esc closes the open menu or search, and the focus goes back to the button that opened it.
      onKeyDown={(e) => {
        if (e.key === 'Escape' && panel) {
          setPanel(null);
          e.currentTarget.querySelector<HTMLElement>('[aria-expanded=true]')?.focus();
        }
      }}
    >
      <Container className="flex h-16 items-center gap-2 sm:h-[72px]">
        <button
          type="button"
          className={cn(iconButton, 'lg:hidden')}
          aria-expanded={menuOpen}
          aria-controls={menuId}
          onClick={() => toggle('menu', menuOpen)}
        >
          <span className="sr-only">{menuOpen ? '關閉選單' : '開啟選單'}</span>
          <svg
            viewBox="0 0 24 24"
            className="size-6"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.6"
            aria-hidden="true"
          >
            {menuOpen ? <path d="M6 6l12 12M18 6 6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
          </svg>
        </button>

        <Link to={paths.landing()} className="mr-auto flex items-center gap-3 rounded-md py-1 lg:mr-8">
          <BrandMark className="size-9" />
          <BrandName />
          <span className="sr-only">首頁</span>
        </Link>

        <nav aria-label="主選單" className="mr-auto hidden lg:block">
          <ul className="flex items-center gap-1">
            {MAIN_NAV.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  className={({ isActive }) =>
                    cn(
                      'rounded-md px-3 py-2 text-[0.9375rem] tracking-wide hover:bg-ink/5',
                      isActive ? 'font-semibold text-tea' : 'text-ink',
                    )
                  }
                >
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>

        <button
          type="button"
          className={iconButton}
          aria-expanded={searchOpen}
          aria-controls={searchId}
          onClick={() => toggle('search', searchOpen)}
        >
          <span className="sr-only">搜尋商品</span>
          <svg
            viewBox="0 0 24 24"
            className="size-6"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.6"
            aria-hidden="true"
          >
            <circle cx="11" cy="11" r="6.5" />
            <path d="m16 16 4.5 4.5" />
          </svg>
        </button>

        <Link
          to={paths.cart()}
          className={iconButton}
          aria-label={cartCount > 0 ? `購物車，共 ${cartCount} 件商品` : '購物車'}
        >
          <svg
            viewBox="0 0 24 24"
            className="size-6"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.6"
            aria-hidden="true"
          >
            <path d="M3.5 4.5h2l2.2 10.2a1.5 1.5 0 0 0 1.5 1.2h7.9a1.5 1.5 0 0 0 1.5-1.1L20.5 8H6.4" />
            <circle cx="9.5" cy="19.5" r="1.2" />
            <circle cx="17" cy="19.5" r="1.2" />
          </svg>
          {cartCount > 0 && (
            <span className="tabular absolute top-1 right-0.5 min-w-5 rounded-full bg-amber px-1 text-center text-[0.6875rem] leading-5 font-semibold text-white">
              {cartCount > 99 ? '99+' : cartCount}
            </span>
          )}
        </Link>

        {isLogin ? (
          <Link
            to={paths.member()}
            className={cn(iconButton, 'sm:w-auto sm:gap-2 sm:px-3')}
            aria-label="會員中心"
          >
            <svg
              viewBox="0 0 24 24"
              className="size-6"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.6"
              aria-hidden="true"
            >
              <circle cx="12" cy="8.5" r="3.8" />
              <path d="M4.5 20c1.2-3.6 4-5.5 7.5-5.5s6.3 1.9 7.5 5.5" />
            </svg>
            <span className="hidden text-[0.9375rem] sm:inline">會員中心</span>
          </Link>
        ) : (
          <Link
            to={loginLink(location.pathname, location.search)}
            className="ml-1 inline-flex min-h-11 items-center rounded-md border whitespace-nowrap border-tea/40 px-3 text-[0.9375rem] text-tea hover:border-tea hover:bg-tea-soft sm:px-4"
          >
            登入
          </Link>
        )}
      </Container>

      {searchOpen && (
        <div id={searchId} className="border-t border-line bg-surface">
          <Container className="py-3">
            <form role="search" onSubmit={onSearch} className="flex gap-2" data-ignore-unsaved>
              <label htmlFor={`${searchId}-q`} className="sr-only">
                搜尋商品
              </label>
              <input
                id={`${searchId}-q`}
                name="q"
                type="search"
                autoFocus
                placeholder="搜尋茶品、茶器或禮盒"
                className="min-h-11 flex-1 rounded-md border border-line bg-paper px-3.5 text-base focus-visible:outline-tea-dark"
              />
              <button type="submit" className="min-h-11 rounded-md bg-tea px-5 text-white hover:bg-tea-dark">
                搜尋
              </button>
            </form>
          </Container>
        </div>
      )}

      {menuOpen && (
        <nav id={menuId} aria-label="行動版選單" className="border-t border-line bg-surface lg:hidden">
          <Container className="py-2">
            <ul className="flex flex-col">
              {MAIN_NAV.map((item) => (
                <li key={item.to}>
                  <NavLink
                    to={item.to}
                    className={({ isActive }) =>
                      cn(
                        'flex min-h-12 items-center border-b border-line/60 px-1 text-base',
                        isActive ? 'font-semibold text-tea' : 'text-ink',
                      )
                    }
                  >
                    {item.label}
                  </NavLink>
                </li>
              ))}
              <li>
                <NavLink
                  to={isLogin ? paths.member() : paths.register()}
                  className="flex min-h-12 items-center px-1 text-base text-ink"
                >
                  {isLogin ? '會員中心' : '註冊會員'}
                </NavLink>
              </li>
            </ul>
          </Container>
        </nav>
      )}
    </header>
  );
}
