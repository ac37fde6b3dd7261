/**
 * Laravel's LengthAwarePaginator::toArray(), field for field (CONTRACT.md §7), including its link window
 * (Illuminate\Pagination\UrlWindow with onEachSide = 3) and the `&laquo; Previous` / `Next &raquo;` labels.
 */

export interface PageLink {
  url: string | null;
  label: string;
  active: boolean;
}

export interface PageObject<T> {
  current_page: number;
  data: T[];
  first_page_url: string;
  from: number;
  last_page: number;
  last_page_url: string;
  links: PageLink[];
  next_page_url: string | null;
  path: string;
  per_page: number;
  prev_page_url: string | null;
  to: number;
  total: number;
}

export const DEFAULT_PER_PAGE = 15;
export const MAX_PER_PAGE = 100;
const ON_EACH_SIDE = 3;

export interface PageRequest {
  page: number;
  perPage: number;
  offset: number;
}

/**
 * A whole number ≥ 1 of any length (so `per_page=99999999999` is still "more than 100", and a page that far out
 * is still a page past the end), capped at the largest integer JSON carries exactly.
 */
function positiveInt(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^\s*\d+\s*$/.test(value)) return undefined;
  const n = Number(value);
  return n >= 1 ? Math.min(n, Number.MAX_SAFE_INTEGER) : undefined;
}

/**
 * `page` as Laravel reads it (anything not an integer ≥ 1 is page 1); `per_page` an integer ≥ 1, at most 100
 * (larger values give 100; anything else, 0 and negatives included, the default 15).
 */
export function pageRequest(query: Record<string, unknown>): PageRequest {
  const page = positiveInt(query.page) ?? 1;
  const perPage = Math.min(positiveInt(query.per_page) ?? DEFAULT_PER_PAGE, MAX_PER_PAGE);
  return { page, perPage, offset: (page - 1) * perPage };
}

/** PHP's http_build_query with PHP_QUERY_RFC3986, as Arr::query uses it. */
function buildQuery(params: Array<[string, string]>): string {
  return params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
}

/**
 * @param path   absolute URL of the list without a query (`http://127.0.0.1:7463/api/document`)
 * @param query  parameters carried in every link (filters, per_page), in order; `page` is added last
 */
export function pageObject<T>(items: T[], total: number, req: PageRequest, path: string, query: Array<[string, string]>): PageObject<T> {
  const { page, perPage } = req;
  const lastPage = Math.max(Math.ceil(total / perPage), 1);
  const url = (p: number): string => `${path}?${buildQuery([...query, ['page', String(Math.max(p, 1))]])}`;
  const range = (from: number, to: number): number[] => {
    const out: number[] = [];
    for (let p = from; p <= to; p++) out.push(p);
    return out;
  };

  // UrlWindow::get()
  let first: number[] | null;
  let slider: number[] | null = null;
  let last: number[] | null = null;
  if (lastPage < ON_EACH_SIDE * 2 + 8) {
    first = range(1, lastPage);
  } else {
    const window = ON_EACH_SIDE + 4;
    if (page <= window) {
      first = range(1, window + ON_EACH_SIDE);
      last = range(lastPage - 1, lastPage);
    } else if (page > lastPage - window) {
      first = range(1, 2);
      last = range(lastPage - (window + (ON_EACH_SIDE - 1)), lastPage);
    } else {
      first = range(1, 2);
      slider = range(page - ON_EACH_SIDE, page + ON_EACH_SIDE);
      last = range(lastPage - 1, lastPage);
    }
  }
  // LengthAwarePaginator::elements() then linkCollection()
  const links: PageLink[] = [{ url: page > 1 ? url(page - 1) : null, label: '&laquo; Previous', active: false }];
  const numbered = (pages: number[]) => {
    for (const p of pages) links.push({ url: url(p), label: String(p), active: p === page });
  };
  const dots = () => links.push({ url: null, label: '...', active: false });
  numbered(first);
  if (slider) {
    dots();
    numbered(slider);
  }
  if (last) {
    dots();
    numbered(last);
  }
  links.push({ url: page < lastPage ? url(page + 1) : null, label: 'Next &raquo;', active: false });

  const from = items.length > 0 ? (page - 1) * perPage + 1 : 0;
  return {
    current_page: page,
    data: items,
    first_page_url: url(1),
    from,
    last_page: lastPage,
    last_page_url: url(lastPage),
    links,
    next_page_url: page < lastPage ? url(page + 1) : null,
    path,
    per_page: perPage,
    prev_page_url: page > 1 ? url(page - 1) : null,
    to: items.length > 0 ? from + items.length - 1 : 0,
    total,
  };
}
