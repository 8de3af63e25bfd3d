/**
 * A vehicle's fields as events and read models record them, their limits and messages,
 * and how a vehicle is named in words. Browser-safe.
 */

import { isBlankText } from '../shared/blank-text.ts';

export const VEHICLE_FIELDS = ['year', 'make', 'model', 'trim', 'vin', 'plate', 'plateState', 'color', 'notes'] as const;
export type VehicleField = (typeof VEHICLE_FIELDS)[number];

/** `year`: the model year as typed (null when none); `vin` normalized (upper case, no spaces); `plate` upper case. */
export interface VehicleFields {
  year: number | null;
  make: string;
  model: string;
  trim: string;
  vin: string;
  plate: string;
  plateState: string;
  color: string;
  notes: string;
}

export const EMPTY_VEHICLE_FIELDS: VehicleFields = {
  year: null,
  make: '',
  model: '',
  trim: '',
  vin: '',
  plate: '',
  plateState: '',
  color: '',
  notes: '',
};

export const VEHICLE_FIELD_LABELS: Record<VehicleField, string> = {
  year: 'Year',
  make: 'Make',
  model: 'Model',
  trim: 'Trim',
  vin: 'VIN',
  plate: 'Plate',
  plateState: 'Plate state',
  color: 'Color',
  notes: 'Notes',
};

export const VEHICLE_LIMITS = {
  yearMin: 1900,
  yearMax: 2100,
  make: 50,
  model: 80,
  trim: 50,
  plate: 15,
  plateState: 30,
  color: 30,
  notes: 2000,
  /** Highest odometer reading taken (miles or kilometres as the shop reads them). */
  mileageMax: 9_999_999,
  mileageReason: 500,
  search: 50,
} as const;

/**
 * A model year sent as text (what a form's box holds): its four digits, 1900 to 2100 as
 * VEHICLE_LIMITS says, spaces around allowed. The server reads text by this pattern alone
 * and the API document publishes it, so the two cannot differ.
 */
export const YEAR_TEXT_PATTERN = '^\\s*(19[0-9]{2}|20[0-9]{2}|2100)\\s*$';

/**
 * An odometer reading sent as text: up to seven digits, or with thousands commas ("12,345"),
 * never above VEHICLE_LIMITS.mileageMax (9,999,999); spaces around allowed. Read by this
 * pattern alone, which the API document publishes.
 */
export const MILEAGE_TEXT_PATTERN = '^\\s*([0-9]{1,7}|[0-9]{1,3},[0-9]{3}|[0-9],[0-9]{3},[0-9]{3})\\s*$';

export const VEHICLE_MESSAGES = {
  atLeastOne: 'A vehicle needs at least one of year, make, model, VIN or plate',
  year: `Year must be a year from ${VEHICLE_LIMITS.yearMin} to ${VEHICLE_LIMITS.yearMax}`,
  notFound: 'Vehicle not found',
  customerNotFound: 'Customer not found',
  mileage: `Mileage must be a whole number from 0 to ${VEHICLE_LIMITS.mileageMax.toLocaleString('en-US')}`,
  mileageLower: (mileage: number, last: number) =>
    `Mileage ${mileage.toLocaleString('en-US')} is lower than this vehicle's last reading, ${last.toLocaleString('en-US')}. ` +
    'Confirm it with a reason (e.g. odometer replaced) to save it.',
  mileageOutBelowIn: 'Mileage out cannot be lower than mileage in',
  searchTooShort: 'Search needs at least 2 characters',
  /** A vehicle named by its VIN alone cannot come back without it. */
  vinOnlyNotRestored: (vin: string) => `The vehicle with VIN ${vin} cannot come back without its VIN: it has nothing else to name it by`,
  /** What a customer's restore says of a vehicle of theirs whose VIN another vehicle took meanwhile. */
  restoredWithoutVin: (label: string, vin: string, holder: string, holderCustomer: string) =>
    `${label} came back without its VIN ${vin}: that VIN is on ${holder}${holderCustomer ? ` of ${holderCustomer}` : ''} now.`,
  stayedDeleted: (vin: string, holder: string, holderCustomer: string) =>
    `The vehicle with VIN ${vin} stays deleted: that VIN is on ${holder}${holderCustomer ? ` of ${holderCustomer}` : ''} now, and the vehicle has nothing else to name it by.`,
  vinTaken: (vin: string, label: string, customerName: string) =>
    `VIN ${vin} is already on ${label}${customerName ? ` of ${customerName}` : ''}. A VIN names one car: open that vehicle, or check the VIN.`,
} as const;

/** True when nothing identifies the vehicle: such a vehicle cannot be saved. */
export function isBlankVehicle(fields: Partial<VehicleFields>): boolean {
  return (
    fields.year == null && isBlankText(fields.make) && isBlankText(fields.model) && isBlankText(fields.vin) && isBlankText(fields.plate)
  );
}

/** '2015 Ford F-150 XLT', else the plate, else the VIN, else 'Vehicle'. */
export function vehicleLabel(fields: Pick<VehicleFields, 'year' | 'make' | 'model' | 'trim' | 'plate' | 'vin'>): string {
  const name = [fields.year ?? '', fields.make, fields.model, fields.trim].filter((part) => part !== '').join(' ');
  if (name) return name;
  if (fields.plate) return `Plate ${fields.plate}`;
  if (fields.vin) return `VIN ${fields.vin}`;
  return 'Vehicle';
}

/** Plates are compared and searched upper case, without spaces and dashes. */
export function normalizePlate(value: string): string {
  return value.toUpperCase().replace(/[\s-]/g, '');
}

/**
 * A vehicle's label as a person reads it, to compare two: without case and extra spaces
 * ('2015 ford  F-150' is '2015 Ford F-150').
 */
export function vehicleLabelKey(label: string): string {
  return label.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * At most `max` UTF-16 units of `text`, never half of a character written as two (an emoji):
 * half of one is text PostgreSQL refuses to store. A cut before a space leaves no space at the end.
 */
function upTo(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max).trimEnd();
}

/**
 * A free-text vehicle ('2015 Ford F-150', 'Civic') as a record's fields: a leading
 * model year, then the make (first word), the rest the model. Text it cannot split so is
 * kept whole as the model.
 */
export function parseVehicleLabel(text: string): Pick<VehicleFields, 'year' | 'make' | 'model'> {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  const match = /^((?:19|20)\d\d)\s+(\S+)(?:\s+(.*))?$/.exec(trimmed);
  if (!match) return { year: null, make: '', model: upTo(trimmed, VEHICLE_LIMITS.model) };
  return {
    year: Number(match[1]),
    make: upTo(match[2]!, VEHICLE_LIMITS.make),
    model: upTo(match[3] ?? '', VEHICLE_LIMITS.model),
  };
}

/**
 * The key (vehicleLabelKey) of the record a typed vehicle becomes: the text's own, unless
 * the text is longer than a record's make or model takes, when it is the cut record's.
 */
export function typedVehicleKey(text: string): string {
  return vehicleLabelKey(vehicleLabel({ ...EMPTY_VEHICLE_FIELDS, ...parseVehicleLabel(text) }));
}
