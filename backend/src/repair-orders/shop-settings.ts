import type { DomainEventOf } from '@crm/projections/events';
import {
  DEFAULT_ESTIMATE_LINK_DAYS,
  moneyText,
  scaledShortText,
  SHOP_SETTINGS_FIELDS,
  type ShopSettingsChanges,
  type ShopSettingsField,
  type ShopSettingsView,
} from '@crm/projections/repair-orders';
import type { AppDeps } from '../deps.ts';
import { executeCommand, loadAggregate, type Decider, type InstanceContext } from '../shared/commands.ts';
import { ConflictError } from '../shared/errors.ts';
import type { ShopRates } from './repair-order-decider.ts';

/**
 * The shop's settings for its documents and money (stream `shopsettings-{instanceId}`):
 * name, address, phone and email on estimates and invoices, labor rate (cents per hour),
 * tax rates (thousandths of a percent), footer, terms and how long an estimate link lasts.
 */

export const shopSettingsStream = (instanceId: string) => `shopsettings-${instanceId}`;

export interface ShopSettings {
  shopName: string;
  address: string;
  phone: string;
  email: string;
  laborRate: number;
  partsTaxRate: number;
  laborTaxRate: number;
  documentFooter: string;
  terms: string;
  estimateLinkDays: number;
}

export const DEFAULT_SHOP_SETTINGS: ShopSettings = {
  shopName: '',
  address: '',
  phone: '',
  email: '',
  laborRate: 0,
  partsTaxRate: 0,
  laborTaxRate: 0,
  documentFooter: '',
  terms: '',
  estimateLinkDays: DEFAULT_ESTIMATE_LINK_DAYS,
};

type SettingsEvent = DomainEventOf<'ShopSettingsUpdated'>;
type SettingsCommand = { type: 'UpdateShopSettings'; instanceId: string; changes: ShopSettingsChanges };

export const shopSettingsDecider: Decider<ShopSettings, SettingsCommand, SettingsEvent> = {
  initialState: DEFAULT_SHOP_SETTINGS,
  evolve(state, event) {
    const next: Record<string, unknown> = { ...state };
    for (const change of event.data.changes) next[change.field] = change.newValue;
    return next as unknown as ShopSettings;
  },
  decide(command, state) {
    const changes = SHOP_SETTINGS_FIELDS.filter(
      (field) => command.changes[field] !== undefined && command.changes[field] !== state[field],
    ).map((field: ShopSettingsField) => ({ field, oldValue: state[field], newValue: command.changes[field]! }));
    if (changes.length === 0) return [];
    return [{ type: 'ShopSettingsUpdated', data: { instanceId: command.instanceId, changes } }];
  },
};

export function shopSettingsView(settings: ShopSettings, revision: number | null, updatedAt: string | null): ShopSettingsView {
  return {
    shopName: settings.shopName,
    address: settings.address,
    phone: settings.phone,
    email: settings.email,
    laborRate: moneyText(settings.laborRate),
    partsTaxRate: scaledShortText(settings.partsTaxRate, 3),
    laborTaxRate: scaledShortText(settings.laborTaxRate, 3),
    documentFooter: settings.documentFooter,
    terms: settings.terms,
    estimateLinkDays: settings.estimateLinkDays,
    // No stream yet: revision 0 is what an If-Match of a first save names (the defaults).
    revision: revision === null ? 0 : revision + 1,
    updatedAt,
  };
}

/** The shop's settings as its stream has them now (the defaults before the first save). */
export async function loadShopSettings(deps: Pick<AppDeps, 'store'>, instanceId: string) {
  const loaded = await loadAggregate(deps.store, shopSettingsStream(instanceId), shopSettingsDecider);
  const last = loaded.events[loaded.events.length - 1];
  return { settings: loaded.state, revision: loaded.revision, updatedAt: last ? last.recordedAt.toISOString() : null };
}

export const ratesOf = (settings: ShopSettings): ShopRates => ({
  laborRate: settings.laborRate,
  partsTaxRate: settings.partsTaxRate,
  laborTaxRate: settings.laborTaxRate,
});

/**
 * Saves the fields given. `expectedRevision` (If-Match, as the view's `revision`: the
 * stream's revision + 1, 0 before the first save) makes a save over a newer version a 409.
 */
export async function updateShopSettings(
  deps: Pick<AppDeps, 'store'>,
  changes: ShopSettingsChanges,
  ctx: InstanceContext,
  expectedRevision?: number,
): Promise<ShopSettingsView> {
  const streamId = shopSettingsStream(ctx.instanceId);
  if (expectedRevision !== undefined) {
    const current = await loadShopSettings(deps, ctx.instanceId);
    const currentRevision = current.revision === null ? 0 : current.revision + 1;
    if (currentRevision !== expectedRevision)
      throw new ConflictError('The shop settings were changed by someone else. Reload them and try again.', {
        current: shopSettingsView(current.settings, current.revision, current.updatedAt),
      });
  }
  const result = await executeCommand({
    store: deps.store,
    streamId,
    decider: shopSettingsDecider,
    command: { type: 'UpdateShopSettings', instanceId: ctx.instanceId, changes },
    ctx,
    ...(expectedRevision !== undefined ? { expectedRevision: expectedRevision === 0 ? undefined : expectedRevision - 1 } : {}),
  });
  const last = result.stream?.[result.stream.length - 1];
  return shopSettingsView(result.state, result.revision, last ? last.recordedAt.toISOString() : ctx.now.toISOString());
}
