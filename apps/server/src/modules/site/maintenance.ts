import type { MaintenanceStatus, SetMaintenanceBody } from '@shop/shared/site';
import type { DbOrTx } from '../../db/client.ts';
import * as repo from './repo.ts';

const KEY = 'maintenance';

export async function readMaintenance(db: DbOrTx, forcedByEnv: boolean): Promise<MaintenanceStatus> {
  const row = await repo.readSetting(db, KEY);
  const value = (row?.value ?? {}) as Partial<MaintenanceStatus>;
  const endsAt = typeof value.endsAt === 'string' ? value.endsAt : null;
  const message =
    typeof value.message === 'string' && value.message
      ? value.message
      : '我們正在進行系統維護，讓購物更順暢。造成不便，敬請見諒。';
  return { enabled: forcedByEnv || value.enabled === true, endsAt, message };
}

export async function writeMaintenance(db: DbOrTx, body: SetMaintenanceBody): Promise<void> {
  const value = { enabled: body.enabled, endsAt: body.endsAt, message: body.message };
  await repo.writeSetting(db, KEY, value);
}
