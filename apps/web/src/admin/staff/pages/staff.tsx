import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ROLE_NAMES, STAFF_ROLES, type StaffRole } from '@shop/shared/admin';
import type { StaffRow } from '@shop/shared/admin-members';
import { Alert } from '../../../components/ui/alert.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { SelectField } from '../../../components/ui/field.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { errorMessage } from '../../../lib/form.ts';
import { AdminPage } from '../../shared/admin-page.tsx';
import { ROLE_HINTS, StaffInvite } from '../components/staff-invite.tsx';
import { useAdminMe } from '../../shared/use-admin-me.ts';
import { formatTaipeiDateTime } from '@shop/shared/taipei-time';
import { memberKeys } from '../../members/queries.ts';
import { staffApi } from '../api.ts';
import { staffKeys, staffQuery } from '../queries.ts';

/** Not yet a console account: invited, waiting for the mailbox's owner to accept. */
const onlyInvited = (s: StaffRow) => s.pendingInvite !== null && !s.passwordSet;

function StatusBadge({ s }: { s: StaffRow }) {
  if (s.pendingInvite) {
    return (
      <span className="inline-flex flex-col gap-0.5">
        <Badge tone="amber">邀請中</Badge>
        <span className="text-xs text-ink-muted">
          {s.pendingInvite.role !== s.role ? `接受後為${ROLE_NAMES[s.pendingInvite.role]}，` : ''}連結有效至{' '}
          {formatTaipeiDateTime(s.pendingInvite.expiresAt)}
        </span>
      </span>
    );
  }
  if (s.disabledAt) return <Badge tone="danger">已停用</Badge>;
  if (!s.passwordSet) return <Badge tone="amber">等待設定密碼</Badge>;
  return <Badge tone="success">使用中</Badge>;
}

function RoleDialog({ target, onClose }: { target: StaffRow; onClose(): void }) {
  const client = useQueryClient();
  const [role, setRole] = useState<StaffRole>(target.role);
  const mutation = useMutation({
    mutationFn: () => staffApi.setRole(target.id, role),
    onSuccess: (row) => {
      void client.invalidateQueries({ queryKey: staffKeys.all });
      toast.success(`${row.displayName} 現在是${ROLE_NAMES[row.role]}。`);
      onClose();
    },
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        mutation.mutate();
      }}
      className="flex flex-col gap-4"
    >
      {mutation.isError && <Alert tone="error">{errorMessage(mutation.error)}</Alert>}
      <SelectField
        label="新的角色"
        value={role}
        onChange={(e) => setRole(e.target.value as StaffRole)}
        hint={ROLE_HINTS[role]}
      >
        {STAFF_ROLES.map((r) => (
          <option key={r} value={r}>
            {ROLE_NAMES[r]}
          </option>
        ))}
      </SelectField>
      <p className="text-sm text-ink-muted">變更會在對方的下一個操作時生效，不需要重新登入。</p>
      <div className="flex justify-end gap-3">
        <Button variant="ghost" onClick={onClose}>
          取消
        </Button>
        <Button type="submit" loading={mutation.isPending} disabled={role === target.role}>
          變更角色
        </Button>
      </div>
    </form>
  );
}

function RevokeDialog({ target, onClose }: { target: StaffRow; onClose(): void }) {
  const client = useQueryClient();
  const invitedOnly = onlyInvited(target);
  const mutation = useMutation({
    mutationFn: () => staffApi.revoke(target.id),
    onSuccess: (res) => {
      void client.invalidateQueries({ queryKey: staffKeys.all });
      void client.invalidateQueries({ queryKey: memberKeys.all });
      toast.success(
        invitedOnly
          ? `已取消對 ${target.email} 的邀請。`
          : `已取消 ${target.email} 的管理權限，並登出 ${res.revokedSessions} 個裝置。`,
      );
      onClose();
    },
  });
  return (
    <div className="flex flex-col gap-4">
      {mutation.isError && <Alert tone="error">{errorMessage(mutation.error)}</Alert>}
      <p className="text-sm leading-relaxed">
        {invitedOnly
          ? `寄給 ${target.email} 的邀請連結會立即失效，對方不會取得管理權限。需要時可以再邀請一次。`
          : `${target.displayName}（${target.email}）會改回一般會員，立即在所有裝置上登出，之後無法再進入管理後台；尚未接受的邀請也會失效。會員資料與訂單都會保留；需要時可以再邀請一次。`}
      </p>
      <div className="flex justify-end gap-3">
        <Button variant="ghost" onClick={onClose}>
          取消
        </Button>
        <Button variant="danger" loading={mutation.isPending} onClick={() => mutation.mutate()}>
          {invitedOnly ? '取消邀請' : '取消管理權限'}
        </Button>
      </div>
    </div>
  );
}

function StaffTable({ me }: { me: string | undefined }) {
  const query = useQuery(staffQuery());
  const [editing, setEditing] = useState<{ kind: 'role' | 'revoke'; target: StaffRow } | null>(null);
  if (query.isError) {
    return <LoadError title="管理員帳號暫時無法載入" query={query} />;
  }
  return (
    <>
      <div className="relative overflow-x-auto rounded-xl border border-line bg-surface">
        <table className="w-full text-sm">
          <caption className="sr-only">
            管理員帳號{query.data ? `，共 ${query.data.items.length} 個` : ''}
          </caption>
          <thead className="bg-paper text-ink-muted">
            <tr>
              <th scope="col" className="px-4 py-3 text-left font-medium whitespace-nowrap">
                帳號
              </th>
              <th scope="col" className="px-4 py-3 text-left font-medium whitespace-nowrap">
                角色
              </th>
              <th scope="col" className="px-4 py-3 text-left font-medium whitespace-nowrap">
                狀態
              </th>
              <th scope="col" className="px-4 py-3 text-left font-medium whitespace-nowrap">
                最後登入
              </th>
              <th scope="col" className="px-4 py-3 text-right font-medium whitespace-nowrap">
                <span className="sr-only">操作</span>
              </th>
            </tr>
          </thead>
          <tbody aria-busy={query.isFetching}>
            {!query.data &&
              Array.from({ length: 3 }, (_, i) => (
                <tr key={i} className="border-t border-line">
                  {Array.from({ length: 5 }, (_, j) => (
                    <td key={j} className="px-4 py-3">
                      <Skeleton className="h-4 w-full max-w-40" />
                    </td>
                  ))}
                </tr>
              ))}
            {query.data?.items.map((s) => {
              const self = s.id === me;
              return (
                <tr key={s.id} className="border-t border-line">
                  <td className="min-w-56 px-4 py-3">
                    <span className="font-medium">{s.displayName}</span>
                    {self && (
                      <Badge tone="tea" className="ml-2">
                        您
                      </Badge>
                    )}
                    <span className="block text-xs break-all text-ink-muted">{s.email}</span>
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap">{ROLE_NAMES[s.role]}</td>
                  <td className="px-4 py-3 whitespace-nowrap">
                    <StatusBadge s={s} />
                  </td>
                  <td className="tabular px-4 py-3 whitespace-nowrap">
                    {s.lastSignInAt ? (
                      formatTaipeiDateTime(s.lastSignInAt)
                    ) : (
                      <span className="text-ink-muted">從未登入</span>
                    )}
                  </td>
                  <td className="px-4 py-3 text-right">
                    {self ? (
                      <span className="text-xs whitespace-nowrap text-ink-muted">不能變更自己的帳號</span>
                    ) : (
                      <span className="inline-flex justify-end gap-2">
                        {!onlyInvited(s) && (
                          <Button
                            size="sm"
                            variant="secondary"
                            onClick={() => setEditing({ kind: 'role', target: s })}
                          >
                            變更角色<span className="sr-only">：{s.email}</span>
                          </Button>
                        )}
                        <button
                          type="button"
                          className="inline-flex min-h-9 items-center rounded-md px-3 text-sm font-medium whitespace-nowrap text-danger hover:bg-danger-soft"
                          onClick={() => setEditing({ kind: 'revoke', target: s })}
                        >
                          {onlyInvited(s) ? '取消邀請' : '取消權限'}
                          <span className="sr-only">：{s.email}</span>
                        </button>
                      </span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <Dialog
        open={editing?.kind === 'role'}
        onClose={() => setEditing(null)}
        title={editing ? `變更「${editing.target.displayName}」的角色` : ''}
      >
        {editing?.kind === 'role' && <RoleDialog target={editing.target} onClose={() => setEditing(null)} />}
      </Dialog>
      <Dialog
        open={editing?.kind === 'revoke'}
        onClose={() => setEditing(null)}
        title={
          editing
            ? onlyInvited(editing.target)
              ? `取消對「${editing.target.email}」的邀請？`
              : `取消「${editing.target.displayName}」的管理權限？`
            : ''
        }
      >
        {editing?.kind === 'revoke' && (
          <RevokeDialog target={editing.target} onClose={() => setEditing(null)} />
        )}
      </Dialog>
    </>
  );
}

/** /admin/staff: the owner's console accounts — invite by mail (邀請中 until accepted), change roles, revoke. */
export default function StaffPage() {
  const me = useAdminMe();
  return (
    <AdminPage
      title="管理員帳號"
      description="可以進入管理後台的帳號。至少要保留一位店主；自己的角色需由另一位店主變更。"
    >
      <Card>
        <h2 className="mb-1 text-lg font-semibold">邀請管理員</h2>
        <p className="mb-4 text-sm text-ink-muted">
          邀請信會寄到對方的電子郵件。對方按信中的連結設定密碼、接受邀請後，才會取得管理權限；在那之前列表顯示「邀請中」。
        </p>
        <StaffInvite />
      </Card>
      <section className="flex flex-col gap-3" aria-labelledby="staff-list-title">
        <h2 id="staff-list-title" className="text-lg font-semibold">
          目前的帳號
        </h2>
        <StaffTable me={me.data?.uid} />
      </section>
    </AdminPage>
  );
}
