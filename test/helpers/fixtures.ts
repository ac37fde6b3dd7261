/**
 * Where the shared real-world fixtures are: `shared/` sits beside the repository (on developers' machines and in
 * CI's fresh clone alike), so the path is found from this file, never hard-coded. DOCLOOM_FIXTURES_DIR overrides it.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The docxtemplater example templates (SOURCE.md in that folder says which are valid and which broken). */
export const DOCX_FIXTURES_DIR =
  process.env.DOCLOOM_FIXTURES_DIR ?? path.resolve(repoRoot, '..', 'shared', 'fixtures', 'docxtemplater-examples');

/** The fixtures SOURCE.md lists as valid templates (the broken ones are the tests' own business). */
export const VALID_DOCX_FIXTURES: readonly string[] = [
  'cover-page-data', 'cyrillic', 'loop-hebrew', 'loop-image-footer', 'office365', 'page-break-inside-condition',
  'quotes-in-tag', 'regression-par-in-par', 'sdt-content', 'smart-art', 'table-complex-example',
  'table-complex2-example', 'table-in-table-corruption', 'tag-docprops', 'tag-example', 'tag-formating',
  'tag-intelligent-loop-table', 'tag-inverted-loop-example', 'tag-loop-example', 'tag-product-loop',
  'tag-spanning-multiline', 'tag-with-comment', 'users', 'with-comments',
];

export function docxFixture(name: string): string {
  return path.join(DOCX_FIXTURES_DIR, name.endsWith('.docx') ? name : `${name}.docx`);
}
