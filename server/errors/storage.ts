/**
 * A full disk (ENOSPC) or an exhausted quota (EDQUOT): an error from any store or file write. The HTTP layer
 * answers 507 with NO_SPACE_MESSAGE (never 500), a document being rendered becomes `failed` with
 * `insufficient_storage`. Found by the error's own `code` or anywhere in its `cause` chain.
 */
export const NO_SPACE_CODES: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT']);

export const NO_SPACE_MESSAGE = "There is no space left for docloom's data. Free some space and try again.";

export function isNoSpace(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e !== null && typeof e === 'object' && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NO_SPACE_CODES.has(code)) return true;
    if (e instanceof AggregateError && e.errors.some((inner) => isNoSpace(inner))) return true;
  }
  return false;
}
