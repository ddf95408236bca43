import { describe, expect, it } from 'vitest';
import { pageCount, pageResult, pageWindow } from './paging.ts';

describe('paging', () => {
  it('turns a page number (from 1) and a size into the rows to skip and take', () => {
    expect(pageWindow(1, 20)).toEqual({ offset: 0, limit: 20 });
    expect(pageWindow(3, 20)).toEqual({ offset: 40, limit: 20 });
  });

  it('counts pages, an empty list still having one', () => {
    expect(pageCount(0, 20)).toBe(1);
    expect(pageCount(20, 20)).toBe(1);
    expect(pageCount(21, 20)).toBe(2);
  });

  it('frames a page the way every paged answer does', () => {
    expect(pageResult(['a', 'b'], 2, 2, 5)).toEqual({
      items: ['a', 'b'],
      page: 2,
      pageSize: 2,
      total: 5,
      totalPages: 3,
    });
  });
});
