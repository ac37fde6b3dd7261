/** Laravel's length-aware page object (interface §2.3, CONTRACT.md §7) and the query parameters lists take. */
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../pagination.js';
import { exact, query } from './common.js';
import type { Parameter, Schema } from './types.js';

const nullableUrl: Schema = { type: ['string', 'null'], format: 'uri' };

/** The page object holding `item` (a schema name). */
export function pageOf(item: string): Schema {
  return exact(
    {
      current_page: { type: 'integer', minimum: 1 },
      data: { type: 'array', items: { $ref: `#/components/schemas/${item}` } },
      first_page_url: { type: 'string', format: 'uri' },
      from: { type: 'integer', minimum: 0, description: '0 on an empty page.' },
      last_page: { type: 'integer', minimum: 1 },
      last_page_url: { type: 'string', format: 'uri' },
      links: { type: 'array', items: { $ref: '#/components/schemas/PageLink' }, minItems: 2 },
      next_page_url: nullableUrl,
      path: { type: 'string', format: 'uri' },
      per_page: { type: 'integer', minimum: 1, maximum: MAX_PER_PAGE },
      prev_page_url: nullableUrl,
      to: { type: 'integer', minimum: 0, description: '0 on an empty page.' },
      total: { type: 'integer', minimum: 0 },
    },
    `A page of ${item} items, Laravel's LengthAwarePaginator field for field.`,
  );
}

export const pageSchemas: Record<string, Schema> = {
  PageLink: exact(
    {
      url: { ...nullableUrl, description: 'null where there is no target (and on `...` separators).' },
      label: { type: 'string', examples: ['&laquo; Previous', '1', '...', 'Next &raquo;'] },
      active: { type: 'boolean', description: 'true on the current page.' },
    },
    'A link of the page object.',
  ),
};

export const pageParameters: Parameter[] = [
  query('page', 'Page number, a whole number ≥ 1 (anything else is page 1); a page past the end is empty.', { type: 'integer', minimum: 1, default: 1 }, 1),
  query('per_page', `Items per page: a whole number ≥ 1; above ${MAX_PER_PAGE} gives ${MAX_PER_PAGE}, anything else ${DEFAULT_PER_PAGE}. Carried in every page link.`, {
    type: 'integer',
    minimum: 1,
    default: DEFAULT_PER_PAGE,
  }, DEFAULT_PER_PAGE),
];
