import { Suspense, useEffect } from 'react';
import { Link, Route, Routes, useLocation } from 'react-router';
import {
  ADMIN_BASE,
  ADMIN_ROUTES,
  adminPath,
  adminRelativePath,
  type AdminRouteId,
} from '@shop/shared/admin-routes';
import { BRAND } from '@shop/shared/brand';
import { ButtonLink } from '../components/ui/button.tsx';
import { EmptyState } from '../components/ui/empty-state.tsx';
import { SkeletonText } from '../components/ui/skeleton.tsx';
import { ToastViewport } from '../components/ui/toast.tsx';
import { ApiError } from '../lib/api-error.ts';
import { hasPermission } from './shared/api.ts';
import { AdminLayout } from './shared/admin-layout.tsx';
import { useAdminMe } from './shared/use-admin-me.ts';
import { ADMIN_PAGES, consolePages } from './page-modules.ts';

const PAGES = consolePages(ADMIN_PAGES);

function Loading() {
  return (
    <div role="status" aria-label="載入中" className="max-w-3xl">
      <SkeletonText lines={8} />
    </div>
  );
}

function Centered({ children }: { children: React.ReactNode }) {
  return <div className="flex min-h-dvh items-center justify-center bg-paper px-4">{children}</div>;
}

/** Titles the browser tab after the console page. */
function useAdminTitle(title: string) {
  useEffect(() => {
    document.title = `${title}｜${BRAND.name} 管理後台`;
  }, [title]);
}

function Page({ id, title, allowed }: { id: AdminRouteId; title: string; allowed: boolean }) {
  useAdminTitle(title);
  if (!allowed)
    return (
      <EmptyState
        title="您的角色沒有權限開啟這個頁面"
        description="如需使用，請洽店主調整您的角色。"
        action={<ButtonLink to={adminPath.dashboard()}>回到總覽</ButtonLink>}
      />
    );
  const Component = PAGES[id];
  return (
    <Suspense fallback={<Loading />}>
      <Component />
    </Suspense>
  );
}

/** /admin/*: the operations console, its own lazily loaded bundle (shoppers never download it). */
export default function AdminApp() {
  const me = useAdminMe();
  const location = useLocation();

  if (me.isPending) {
    return (
      <Centered>
        <Loading />
      </Centered>
    );
  }
  if (me.isError) {
    const status = me.error instanceof ApiError ? me.error.status : 0;
    return (
      <Centered>
        {status === 401 ? (
          <EmptyState
            title="請先登入管理員帳號"
            description="管理後台只開放給店主與店員。"
            action={
              <ButtonLink to={`/login?redirect=${encodeURIComponent(location.pathname + location.search)}`}>
                前往登入
              </ButtonLink>
            }
          />
        ) : status === 403 ? (
          <EmptyState
            title="這個帳號沒有管理後台的權限"
            description="如果您是店員，請洽店主為您開通。"
            action={<ButtonLink to="/">回到商店</ButtonLink>}
          />
        ) : (
          <EmptyState
            title="管理後台暫時無法載入"
            description="請檢查網路連線後重新整理頁面。"
            action={<ButtonLink to={adminPath.dashboard()}>重新載入</ButtonLink>}
          />
        )}
      </Centered>
    );
  }

  return (
    <AdminLayout me={me.data}>
      {/* The console's forms keep their save button in a bar at the bottom: notices sit above it. */}
      <div className="[&>[aria-live]]:bottom-24">
        <ToastViewport />
      </div>
      <Routes>
        {ADMIN_ROUTES.map((r) => (
          <Route
            key={r.id}
            path={r.path === ADMIN_BASE ? undefined : adminRelativePath(r.path)}
            index={r.path === ADMIN_BASE}
            element={<Page id={r.id} title={r.title} allowed={hasPermission(me.data, r.permission)} />}
          />
        ))}
        <Route
          path="*"
          element={
            <EmptyState
              title="找不到這個頁面"
              description="網址可能有誤，或頁面已經移除。"
              action={
                <Link to={adminPath.dashboard()} className="text-tea underline">
                  回到總覽
                </Link>
              }
            />
          }
        />
      </Routes>
    </AdminLayout>
  );
}
