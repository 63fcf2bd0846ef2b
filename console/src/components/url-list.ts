import { useSearchParams } from 'react-router';

/**
 * A list whose filters and paging live in the address (so a filtered list can be bookmarked and
 * shared): the filters named in `names` as read from it, the page, its size, and `show` to change them
 * (empty filters dropped, values trimmed, back to page 1 unless told otherwise).
 */
export function useUrlList<Filters extends object>(names: readonly string[], defaultPageSize: number) {
  const [params, setParams] = useSearchParams();
  const filters: Record<string, string> = {};
  for (const name of names) {
    const value = params.get(name);
    if (value) filters[name] = value;
  }
  const page = Number(params.get('page') ?? 1);
  const pageSize = Number(params.get('page_size') ?? defaultPageSize);
  const show = (next: Filters, nextPage = 1, nextSize = pageSize) => {
    const entries = Object.entries(next).filter(([, value]) => typeof value === 'string' && value.trim() !== '');
    setParams({
      ...Object.fromEntries(entries.map(([name, value]) => [name, String(value).trim()])),
      page: String(nextPage),
      page_size: String(nextSize),
    });
  };
  return { filters: filters as Filters, page, pageSize, show, key: params.toString() };
}
