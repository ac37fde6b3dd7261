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

export function docxFixture(name: string): string {
  return path.join(DOCX_FIXTURES_DIR, name.endsWith('.docx') ? name : `${name}.docx`);
}
