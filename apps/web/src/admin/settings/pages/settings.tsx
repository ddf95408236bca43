import { AdminPage } from '../../shared/admin-page.tsx';
import { MaintenanceCard } from '../components/settings-maintenance-card.tsx';
import { NotificationsCard } from '../components/settings-notifications-card.tsx';
import { RemindersCard } from '../components/settings-reminders-card.tsx';
import { ReturnsCard } from '../components/settings-returns-card.tsx';
import { ShippingRulesCard } from '../components/settings-shipping-card.tsx';
import { useCan } from '../../shared/use-admin-me.ts';

/** /admin/settings: the shipping fee rules, maintenance mode, the shop's mails, the reminders and the return period (every role reads; the owner changes them). */
export default function SettingsPage() {
  const canWrite = useCan('settings.write');
  return (
    <AdminPage
      title="運費與維護"
      description="運費規則會立即套用到結帳、購物車與運費說明頁；維護模式會暫停商店的營業；店家通知信與寄給會員的提醒信可以分別開關；退貨期限決定會員在到貨後幾天內可以申請退貨。"
    >
      <div className="flex max-w-4xl flex-col gap-6">
        <ShippingRulesCard canWrite={canWrite} />
        <MaintenanceCard canWrite={canWrite} />
        <NotificationsCard canWrite={canWrite} />
        <RemindersCard canWrite={canWrite} />
        <ReturnsCard canWrite={canWrite} />
      </div>
    </AdminPage>
  );
}
