import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ShippingSettingsView, UpdateShippingBody } from '@shop/shared/admin-settings';
import { editablePart } from '@shop/shared/shipping';
import { MaintenanceStatus, SetMaintenanceBody } from '@shop/shared/site';
import { contentChanged } from '../content/service.ts';
import { readMaintenance, writeMaintenance } from '../site/maintenance.ts';
import { readShippingRules, shippingRulesChanged, writeShippingRules, type StoredShippingRules } from '../site/shipping-rules.ts';
import { recordAudit } from './audit.ts';

const view = (s: StoredShippingRules): ShippingSettingsView => ({ rules: s.rules, updatedAt: s.updatedAt?.toISOString() ?? null });

/** Site settings: the shipping fee rules and maintenance mode (the owner changes them; every role reads). */
const settings: FastifyPluginAsync = async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/admin/settings/shipping', { config: { permission: 'settings.read' }, schema: { response: { 200: ShippingSettingsView } } }, async () => view(await readShippingRules(app.db)));

  r.put(
    '/api/admin/settings/shipping',
    { config: { permission: 'settings.write' }, schema: { body: UpdateShippingBody, response: { 200: ShippingSettingsView } } },
    async (request) => {
      const saved = await app.db.transaction(async (tx) => {
        const before = await readShippingRules(tx);
        await writeShippingRules(tx, request.body);
        const after = await readShippingRules(tx);
        await recordAudit(tx, request, { action: 'shipping.update', entity: 'setting', entityId: 'shipping', before: editablePart(before.rules), after: editablePart(after.rules) });
        return after;
      });
      // Checkout, the public table and the pages' amounts use the new rules from the next request.
      shippingRulesChanged(app.db, saved.rules);
      contentChanged();
      return view(saved);
    },
  );

  r.post('/api/admin/maintenance', { config: { permission: 'settings.write' }, schema: { body: SetMaintenanceBody, response: { 200: MaintenanceStatus } } }, async (request) => {
    await app.db.transaction(async (tx) => {
      const before = await readMaintenance(tx, false);
      await writeMaintenance(tx, request.body);
      await recordAudit(tx, request, { action: 'maintenance.set', entity: 'setting', entityId: 'maintenance', before, after: request.body });
    });
    app.maintenanceChanged();
    return app.maintenanceStatus();
  });
};

export default settings;
