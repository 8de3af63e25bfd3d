/** The autocomplete shows this many vehicle badges before '+N more'. */
export const VEHICLE_BADGES_SHOWN = 2;

export interface VehicleBadges {
  shown: string[];
  /** '+N more', or null when every vehicle is shown. */
  more: string | null;
}

/** Up to `max` vehicles as badges, then '+N more' for the rest; blank items are skipped. */
export function summariseVehicles(vehicles: readonly string[], max: number = VEHICLE_BADGES_SHOWN): VehicleBadges {
  const items = vehicles.map((vehicle) => vehicle.trim()).filter(Boolean);
  const shown = items.slice(0, max);
  const rest = items.length - shown.length;
  return { shown, more: rest > 0 ? `+${rest} more` : null };
}
