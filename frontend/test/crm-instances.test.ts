import type { CrmInstanceView } from '@crm/projections/platform';
import { describe, expect, test } from 'vitest';
import { crmInstanceListSchema } from '../src/features/platform/types/crm-instance-schema.ts';
import { selectableInstances } from '../src/features/platform/utils/selectable-instances.ts';

describe('crmInstanceListSchema', () => {
  test('reads features given as a JSON string, and missing fields take defaults', () => {
    const [instance] = crmInstanceListSchema.parse([
      { id: 7, name: 'Acme Auto', displayName: null, description: null, features: '{"calendar":true,"admin":false}' },
    ]);
    expect(instance).toEqual({
      id: '7',
      name: 'Acme Auto',
      subdomain: 'acmeauto',
      displayName: 'Acme Auto',
      description: '',
      features: { pipeline: true, customers: true, calendar: true, admin: false },
      isActive: true,
      createdAt: '',
    });
  });

  test('keeps features given as an object', () => {
    const features = { pipeline: false, customers: true, calendar: false, admin: true };
    const [instance] = crmInstanceListSchema.parse([
      { id: 'a', name: 'A', subdomain: 'a', displayName: 'A', description: 'd', features, isActive: false, createdAt: 'x' },
    ]);
    expect(instance?.features).toEqual(features);
    expect(instance?.isActive).toBe(false);
  });
});

describe('selectableInstances', () => {
  const make = (subdomain: string): CrmInstanceView => ({
    id: subdomain,
    name: subdomain.toUpperCase(),
    subdomain,
    displayName: subdomain,
    description: '',
    features: { pipeline: true, customers: true, calendar: false, admin: true },
    isActive: true,
    createdAt: '',
  });

  test('hides the reserved provider instance', () => {
    expect(selectableInstances([make('maven'), make('acme'), make('joes')]).map((i) => i.subdomain)).toEqual(['acme', 'joes']);
  });
});
