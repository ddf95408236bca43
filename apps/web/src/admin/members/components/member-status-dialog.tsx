import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { DisableMemberBody, EnableMemberBody } from '@shop/shared/admin-members';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextAreaField } from '../../../components/ui/field.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { FORM_MODE, useApiSubmit } from '../../../lib/form.ts';
import { memberKeys } from '../queries.ts';
import { membersApi } from '../api.ts';

interface Target {
  readonly id: string;
  readonly name: string;
  readonly disabledAt: string | null;
}

function StatusForm({ member, onDone, onCancel }: { member: Target; onDone(): void; onCancel(): void }) {
  const client = useQueryClient();
  const disabling = member.disabledAt === null;
  const form = useForm<{ reason: string }>({
    mode: FORM_MODE,
    resolver: zodResolver(disabling ? DisableMemberBody : EnableMemberBody) as never,
    defaultValues: { reason: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const { formError, onSubmit } = useApiSubmit(
    form,
    (values) => membersApi.setDisabled(member.id, disabling, values),
    (result) => {
      void client.invalidateQueries({ queryKey: memberKeys.all });
      toast.success(
        disabling
          ? `已停用「${member.name}」${result.revokedSessions > 0 ? `，並登出 ${result.revokedSessions} 個裝置` : ''}。`
          : `已重新啟用「${member.name}」。`,
      );
      onDone();
    },
  );
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-4">
      {disabling ? (
        <p className="text-sm leading-relaxed">
          停用後，這個帳號會立刻在所有裝置上登出，也無法再登入或下單；既有訂單不受影響。之後可以隨時重新啟用。
        </p>
      ) : (
        <p className="text-sm leading-relaxed">
          重新啟用後，會員可以再次登入（先前被登出的裝置需要重新登入）。
        </p>
      )}
      {formError && <Alert tone="error">{formError}</Alert>}
      <TextAreaField
        label={disabling ? '停用原因' : '啟用原因'}
        required={disabling}
        hint={disabling ? '會記錄在操作紀錄中，其他管理員也看得到。' : '選填，會記錄在操作紀錄中。'}
        error={errors.reason?.message}
        className="min-h-24"
        maxLength={200}
        {...form.register('reason')}
      />
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="ghost" onClick={onCancel}>
          取消
        </Button>
        <Button type="submit" variant={disabling ? 'danger' : 'primary'} loading={isSubmitting}>
          {disabling ? '停用帳號' : '重新啟用'}
        </Button>
      </div>
    </form>
  );
}

/** Asks for the reason, then disables (ending every session of the account) or enables it. */
export function MemberStatusDialog({
  member,
  open,
  onClose,
}: {
  member: Target;
  open: boolean;
  onClose(): void;
}) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={member.disabledAt ? `重新啟用「${member.name}」` : `停用「${member.name}」的帳號`}
    >
      {open && <StatusForm member={member} onDone={onClose} onCancel={onClose} />}
    </Dialog>
  );
}
