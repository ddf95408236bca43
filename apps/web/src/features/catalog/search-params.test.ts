import { describe, expect, it } from 'vitest';
import { apiQuery, hasFilters, readMallView, writeMallView } from './search-params.ts';

describe('mall view in the URL', () => {
  it('round-trips a full view', () => {
    const view = readMallView(
      new URLSearchParams(
        'category=high-mountain-oolong&q=%E7%83%8F%E9%BE%8D&minPrice=300&maxPrice=1000&inStock=1&sort=price-asc&page=2',
      ),
    );
    expect(view).toEqual({
      category: 'high-mountain-oolong',
      q: '烏龍',
      minPrice: 300,
      maxPrice: 1000,
      inStock: true,
      sort: 'price-asc',
      page: 2,
    });
    expect(readMallView(writeMallView(view))).toEqual(view);
  });
  it('drops defaults so the plain mall is just /mall', () => {
    expect(writeMallView(readMallView(new URLSearchParams('sort=recommended&page=1'))).toString()).toBe('');
  });
  it('ignores malformed values instead of failing', () => {
    expect(readMallView(new URLSearchParams('sort=cheap&page=-3&minPrice=abc&category=<x>'))).toEqual({
      sort: 'recommended',
      page: 1,
    });
    // A maximum below the minimum is dropped rather than sent to the API as an error.
    expect(readMallView(new URLSearchParams('minPrice=900&maxPrice=5'))).toEqual({
      minPrice: 900,
      sort: 'recommended',
      page: 1,
    });
  });
  it('builds the API query with the page size', () => {
    expect(apiQuery({ sort: 'newest', page: 1, inStock: true }, 12)).toBe(
      'inStock=1&sort=newest&pageSize=12',
    );
    expect(hasFilters({ sort: 'newest', page: 3 })).toBe(false);
    expect(hasFilters({ sort: 'newest', page: 1, q: '茶' })).toBe(true);
  });
});
