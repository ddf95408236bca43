import { describe, expect, it } from 'vitest';
import { CVS_MAP_PARAM } from '@shop/shared/logistics';
import { STORE_MAP_PARAM } from './new-store.tsx';

describe('the store map’s way back to an order', () => {
  it('reads the same query parameter the server sends the browser back with', () => {
    expect(STORE_MAP_PARAM).toBe(CVS_MAP_PARAM);
  });
});
