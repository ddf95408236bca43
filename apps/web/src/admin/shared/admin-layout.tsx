import { useId, useState, type ReactNode } from 'react';
import { Link, NavLink, useNavigate } from 'react-router';
import { ADMIN_BASE, ADMIN_ROUTES, adminPath } from '@shop/shared/admin-routes';
import { ROLE_NAMES, type AdminMe } from '@shop/shared/admin';
import { BrandMark } from '../../components/brand-mark.tsx';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { toast } from '../../components/ui/toast.tsx';
import { authApi } from '../../features/auth/api/auth-api.ts';
import { forgetSignedIn } from '../../features/auth/session.ts';
import { errorMessage } from '../../lib/form.ts';
import { hasPermission } from './api.ts';

const NAV = ADMIN_ROUTES.filter((r) => 'nav' in r && r.nav);

/** The console's frame: navigation by permission (a side bar on wide screens, a menu on phones). */
export function AdminLayout({ me, children }: { me: AdminMe; children: ReactNode }) {
  const navigate = useNavigate();
  const menuId = useId();
  const [menuOpen, setMenuOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  const items = NAV.filter((r) => hasPermission(me, r.permission));

  const signOut = async () => {
    setSigningOut(true);
    try {
      await authApi.logout();
      await navigate('/login', { replace: true });
      forgetSignedIn();
    } catch (error) {
      toast.error(errorMessage(error));
      setSigningOut(false);
    }
  };

  const nav = (
    <ul className="flex flex-col gap-0.5">
      {items.map((r) => (
        <li key={r.id}>
          <NavLink
            to={r.path}
            end={r.path === ADMIN_BASE}
            onClick={() => setMenuOpen(false)}
            className={({ isActive }) =>
              cn(
                'flex min-h-10 items-center rounded-md px-3 text-[0.9375rem]',
                isActive ? 'bg-tea text-white' : 'text-ink hover:bg-tea-soft',
              )
            }
          >
            {r.title}
          </NavLink>
        </li>
      ))}
    </ul>
  );

  return (
    <div className="min-h-dvh bg-paper text-ink lg:grid lg:grid-cols-[232px_1fr]">
      <a
        href="#admin-main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-surface focus:px-3 focus:py-2"
      >
        跳到主要內容
      </a>
      <header className="sticky top-0 z-30 flex items-center gap-3 border-b border-line bg-surface px-4 py-2.5 lg:hidden">
        <button
          type="button"
          aria-expanded={menuOpen}
          aria-controls={menuId}
          onClick={() => setMenuOpen((o) => !o)}
          className="inline-flex size-10 items-center justify-center rounded-md hover:bg-ink/5"
        >
          <span className="sr-only">{menuOpen ? '關閉選單' : '開啟選單'}</span>
          <svg
            viewBox="0 0 24 24"
            className="size-6"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.8"
            aria-hidden="true"
          >
            {menuOpen ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
          </svg>
        </button>
        <Link to={adminPath.dashboard()} className="flex items-center gap-2 font-serif text-lg">
          <BrandMark className="size-7" />
          管理後台
        </Link>
      </header>
      {menuOpen && (
        <nav
          id={menuId}
          aria-label="管理後台選單"
          className="border-b border-line bg-surface px-4 py-3 lg:hidden"
        >
          {nav}
        </nav>
      )}
      <div className="hidden border-r border-line bg-surface lg:block">
        <aside className="sticky top-0 flex h-dvh flex-col gap-6 overflow-y-auto px-4 py-6">
          <Link to={adminPath.dashboard()} className="flex items-center gap-2 px-2 font-serif text-xl">
            <BrandMark className="size-8" />
            管理後台
          </Link>
          <nav aria-label="管理後台選單">{nav}</nav>
          <div className="mt-auto flex flex-col gap-2 px-2 text-sm">
            <p>
              <span className="block font-medium">{me.displayName}</span>
              <span className="block truncate text-ink-muted" title={me.email}>
                {me.email}
              </span>
              <span className="mt-1 inline-block rounded-full bg-tea-soft px-2 py-0.5 text-xs text-tea-dark">
                {ROLE_NAMES[me.role]}
              </span>
            </p>
            <Link to="/" className="text-tea underline-offset-4 hover:underline">
              回到商店
            </Link>
            <Button variant="secondary" size="sm" loading={signingOut} onClick={() => void signOut()}>
              {signingOut ? '登出中…' : '登出'}
            </Button>
          </div>
        </aside>
      </div>
      <main id="admin-main" tabIndex={-1} className="min-w-0 px-4 py-6 sm:px-6 lg:px-10 lg:py-8">
        {children}
        <div className="mt-10 flex items-center justify-between border-t border-line pt-4 text-sm text-ink-muted lg:hidden">
          <span>
            {me.displayName}（{ROLE_NAMES[me.role]}）
          </span>
          <Button variant="ghost" size="sm" loading={signingOut} onClick={() => void signOut()}>
            登出
          </Button>
        </div>
      </main>
    </div>
  );
}
