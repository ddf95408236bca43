import { AdminPage } from '../../shared/admin-page.tsx';
import { AnalyticsCard } from '../components/settings-analytics-card.tsx';
import { StorefrontCard } from '../components/settings-storefront-card.tsx';
import { MaintenanceCard } from '../components/settings-maintenance-card.tsx';
import { NotificationsCard } from '../components/settings-notifications-card.tsx';
import { RemindersCard } from '../components/settings-reminders-card.tsx';
import { ReturnsCard } from '../components/settings-returns-card.tsx';
import { ShippingRulesCard } from '../components/settings-shipping-card.tsx';
import { StorePaymentsCard } from '../components/settings-store-payments-card.tsx';
import { useCan } from '../../shared/use-admin-me.ts';

/** /admin/settings: the shipping fee rules, maintenance mode, the shop's mails, the reminders, the return period, the footer's facts and the measurement IDs (every role reads; the owner changes them). */
export default function SettingsPage() {
  const canWrite = useCan('settings.write');
  return (
    <AdminPage
      title="網站設定"
      description="運費規則會立即套用到結帳、購物車與運費說明頁；維護模式會暫停商店的營業；店家通知信與寄給會員的提醒信可以分別開關；退貨期限決定會員在到貨後幾天內可以申請退貨；頁尾資訊與追蹤碼儲存後立即生效。"
    >
      <div className="flex max-w-4xl flex-col gap-6">
        <ShippingRulesCard canWrite={canWrite} />
        <MaintenanceCard canWrite={canWrite} />
        <NotificationsCard canWrite={canWrite} />
        <StorePaymentsCard canWrite={canWrite} />
        <RemindersCard canWrite={canWrite} />
        <ReturnsCard canWrite={canWrite} />
        <StorefrontCard canWrite={canWrite} />
        <AnalyticsCard canWrite={canWrite} />
      </div>
    </AdminPage>
  );
}
