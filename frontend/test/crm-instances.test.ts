import { crmInstanceListSchema, type CrmInstanceView } from '@crm/projections/contract';
import { describe, expect, test } from 'vitest';
import { selectableInstances } from '../src/features/platform/utils/selectable-instances.ts';

describe('crmInstanceListSchema (the contract the server answers with)', () => {
  test('an instance as the server sends it parses as it is', () => {
    const features = { pipeline: false, customers: true, calendar: false, admin: true, serviceRequests: true };
    const [instance] = crmInstanceListSchema.parse([
      {
        id: 'a',
        name: 'A',
        subdomain: 'a',
        displayName: 'A',
        description: 'd',
        features,
        timeZone: 'UTC',
        publicRequests: false,
        isActive: false,
        createdAt: 'x',
      },
    ]);
    expect(instance?.features).toEqual(features);
    expect(instance?.isActive).toBe(false);
  });

  test('older clients’ shapes (features as a JSON string, missing fields) are no answer of this server: refused', () => {
    expect(
      crmInstanceListSchema.safeParse([
        { id: 7, name: 'Acme Auto', displayName: null, description: null, features: '{"calendar":true,"admin":false}' },
      ]).success,
    ).toBe(false);
  });
});

describe('selectableInstances', () => {
  const make = (subdomain: string): CrmInstanceView => ({
    id: subdomain,
    name: subdomain.toUpperCase(),
    subdomain,
    displayName: subdomain,
    description: '',
    features: { pipeline: true, customers: true, calendar: false, admin: true, serviceRequests: true },
    timeZone: 'UTC',
    publicRequests: false,
    isActive: true,
    createdAt: '',
  });

  test('hides the reserved provider instance', () => {
    expect(selectableInstances([make('maven'), make('acme'), make('joes')]).map((i) => i.subdomain)).toEqual(['acme', 'joes']);
  });
});
