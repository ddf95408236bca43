import { Badge } from '../../../components/ui/badge.tsx';

export function MemberStatusBadge({ disabledAt }: { disabledAt: string | null }) {
  return disabledAt ? <Badge tone="danger">已停用</Badge> : <Badge tone="success">使用中</Badge>;
}
