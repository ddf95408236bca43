import { NavLink, Outlet } from 'react-router';
import { cn } from '../../../components/ui/cn.ts';
import { Container } from '../../../components/ui/page.tsx';
import { paths } from '../../../config/paths.ts';

const MEMBER_NAV = [
  { to: paths.member(), label: '會員首頁', end: true },
  { to: paths.orderList(), label: '訂單查詢', end: false },
  { to: paths.orderTracking(), label: '配送追蹤', end: false },
  { to: paths.membershipAndDiscounts(), label: '會員等級與優惠', end: false },
] as const;

/** Spec §2: /member is a parent layout; its children share this navigation. */
export default function MemberLayout() {
  return (
    <Container className="grid gap-6 py-8 lg:grid-cols-[220px_1fr] lg:gap-10 lg:py-12">
      <nav aria-label="會員中心選單" className="-mx-4 overflow-x-auto px-4 lg:mx-0 lg:px-0">
        <ul className="flex gap-2 lg:flex-col lg:gap-1">
          {MEMBER_NAV.map((item) => (
            <li key={item.to} className="shrink-0">
              <NavLink
                to={item.to}
                end={item.end}
                className={({ isActive }) =>
                  cn(
                    'flex min-h-11 items-center rounded-md px-4 text-[0.9375rem] whitespace-nowrap',
                    isActive ? 'bg-tea text-white' : 'bg-surface text-ink hover:bg-tea-soft lg:bg-transparent',
                  )
                }
              >
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="min-w-0">
        <Outlet />
      </div>
    </Container>
  );
}
