import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

/**
 * A table's filters and page, kept in the URL so a reload, a shared link or Back shows the same
 * rows. `defaults` names every filter; values are strings ('' means unset). Changing a filter
 * returns to page 1.
 */
export function useUrlFilters<K extends string>(defaults: Record<K, string>) {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => {
    const out = { ...defaults };
    for (const key of Object.keys(defaults) as K[]) out[key] = params.get(key) ?? defaults[key];
    return out;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- defaults is a literal per table
  }, [params]);
  const rawPage = Number(params.get('page') ?? '1');
  const page = Number.isInteger(rawPage) && rawPage >= 1 ? rawPage : 1;

  const setFilters = useCallback(
    (next: Partial<Record<K, string>>) => {
      setParams(
        (prev) => {
          const p = new URLSearchParams(prev);
          for (const [key, value] of Object.entries(next) as Array<[K, string | undefined]>) {
            if (!value || value === defaults[key]) p.delete(key);
            else p.set(key, value);
          }
          p.delete('page');
          return p;
        },
        { replace: true },
      );
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- defaults is a literal per table
    [setParams],
  );
  const setPage = useCallback(
    (n: number) =>
      setParams((prev) => {
        const p = new URLSearchParams(prev);
        if (n <= 1) p.delete('page');
        else p.set('page', String(n));
        return p;
      }),
    [setParams],
  );
  return { filters, page, setFilters, setPage };
}
