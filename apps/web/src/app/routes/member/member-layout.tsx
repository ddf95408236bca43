import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, NavLink, Outlet, useNavigate } from 'react-router';
import { EmailText } from '../../../components/email-text.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { Container } from '../../../components/ui/page.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { paths } from '../../../config/paths.ts';
import { errorMessage } from '../../../lib/form.ts';
import { authApi } from '../../../features/auth/api/auth-api.ts';
import { currentUserQueryOptions } from '../../../features/auth/api/get-current-user.ts';
import { ReauthDialog } from '../../../features/auth/components/reauth-dialog.tsx';
import { ResendVerificationButton } from '../../../features/auth/components/resend-verification.tsx';
import { forgetSignedIn } from '../../../features/auth/session.ts';
import { useUserStore } from '../../../features/auth/stores/user-store.ts';

const MEMBER_NAV = [
  { to: paths.member(), label: '會員首頁', end: true },
  { to: paths.orderList(), label: '訂單查詢', end: false },
  { to: paths.wishlist(), label: '收藏清單', end: false },
  { to: paths.orderTracking(), label: '配送追蹤', end: false },
  { to: paths.membershipAndDiscounts(), label: '會員等級與優惠', end: false },
] as const;

const navItem = (active: boolean) =>
  cn(
    'flex min-h-11 w-full items-center rounded-md px-3 text-left lg:px-4 text-[0.9375rem] whitespace-nowrap',
    active ? 'bg-tea text-white' : 'bg-surface text-ink hover:bg-tea-soft lg:bg-transparent',
  );

/** /member is a parent layout (docs/product-rules.md#routes-and-guards); its children share this navigation. */
export default function MemberLayout() {
  const navigate = useNavigate();
  // Refresh the member's record (e.g. verified elsewhere) whenever the member area opens.
  useQuery(currentUserQueryOptions());
  const user = useUserStore((s) => s.userInfo);
  const [reauthOpen, setReauthOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);

  const signOut = async () => {
    setSigningOut(true);
    try {
      await authApi.logout();
      // Leave the member pages first, so nothing on them asks the API again as a signed-out visitor.
      await navigate(paths.landing(), { replace: true });
      forgetSignedIn();
      toast.info('您已登出，期待再次相見。');
    } catch (error) {
      toast.error(errorMessage(error));
      setSigningOut(false);
    }
  };

  return (
    <Container className="grid gap-6 py-8 lg:grid-cols-[220px_1fr] lg:gap-10 lg:py-12">
      <nav aria-label="會員中心選單">
        {user && (
          <p className="mb-3 hidden px-4 text-sm text-ink-muted lg:block">
            <span className="block text-base text-ink">{user.displayName}</span>
            <EmailText email={user.email} />
          </p>
        )}
        {/* On a phone the tabs wrap onto a second row rather than run off the screen unseen. */}
        <ul className="flex flex-wrap gap-2 lg:flex-col lg:flex-nowrap lg:gap-1">
          {MEMBER_NAV.map((item) => (
            <li key={item.to} className="shrink-0">
              <NavLink to={item.to} end={item.end} className={({ isActive }) => navItem(isActive)}>
                {item.label}
              </NavLink>
            </li>
          ))}
          <li className="shrink-0">
            <NavLink
              to={paths.memberResetPassword()}
              className={({ isActive }) => navItem(isActive)}
              onClick={(e) => {
                e.preventDefault();
                setReauthOpen(true);
              }}
            >
              修改密碼
            </NavLink>
          </li>
          {user?.console && (
            // Owner, staff and viewers: the way back to the operations console.
            <li className="shrink-0">
              <Link to="/admin" className={navItem(false)}>
                管理後台
              </Link>
            </li>
          )}
          <li className="shrink-0 lg:mt-4 lg:border-t lg:border-line lg:pt-4">
            <button
              type="button"
              className={navItem(false)}
              onClick={() => void signOut()}
              disabled={signingOut}
            >
              {signingOut ? '登出中…' : '登出'}
            </button>
          </li>
        </ul>
      </nav>
      <div className="flex min-w-0 flex-col gap-6">
        {user && !user.emailVerified && (
          <Alert tone="warning" title="您的電子郵件尚未驗證" action={<ResendVerificationButton />}>
            我們已寄驗證信到 <EmailText email={user.email} />
            。完成驗證後，才能收到訂單與出貨通知。
          </Alert>
        )}
        <Outlet />
      </div>
      <ReauthDialog
        open={reauthOpen}
        onClose={() => setReauthOpen(false)}
        onConfirmed={() => {
          setReauthOpen(false);
          void navigate(paths.memberResetPassword());
        }}
      />
    </Container>
  );
}
