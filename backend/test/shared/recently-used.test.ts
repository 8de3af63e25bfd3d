import Router from '@koa/router';
import type { Knex } from 'knex';
import { describe, expect, test, vi } from 'vitest';
import { access, ApiRouter } from '../../src/http/router.ts';
import { RecentlyUsed } from '../../src/shared/recently-used.ts';

describe('RecentlyUsed', () => {
  test('when full, a new entry pushes out the one used longest ago, not the ones read since', () => {
    const map = new RecentlyUsed<string, number>(3);
    map.set('a', 1);
    map.set('b', 2);
    map.set('c', 3);
    expect(map.get('a')).toBe(1); // a is now the most recent; b the least
    map.set('d', 4);
    expect(map.size).toBe(3);
    expect(map.get('b')).toBeUndefined();
    expect([map.get('a'), map.get('c'), map.get('d')]).toEqual([1, 3, 4]);
    map.set('c', 30); // writing again refreshes too
    map.set('e', 5);
    expect(map.get('a')).toBeUndefined();
    expect([map.get('c'), map.get('d'), map.get('e')]).toEqual([30, 4, 5]);
    map.clear();
    expect(map.size).toBe(0);
  });
});

describe("the router's remembered matches", () => {
  test('a path requested all along stays remembered while thousands of others come and go', () => {
    const match = vi.spyOn(Router.prototype, 'match');
    try {
      const api = new ApiRouter({} as Knex);
      api.get('/api/:instance/things/:id', access.can('canRead'), () => Promise.resolve());
      const hot = (path: string) => path === '/api/shop/things/hot';
      for (let i = 0; i < 5_000; i++) {
        const found = api.router.match(i % 10 === 0 ? '/api/shop/things/hot' : `/api/shop/things/${i}`, 'GET');
        expect(found.route).toBe(true);
      }
      // Matched once, then answered from memory; each answer is the caller's own.
      expect(match.mock.calls.filter(([path]) => hot(path))).toHaveLength(1);
      const first = api.router.match('/api/shop/things/hot', 'GET');
      first.path.length = 0;
      expect(api.router.match('/api/shop/things/hot', 'GET').path).toHaveLength(1);
    } finally {
      match.mockRestore();
    }
  });
});
