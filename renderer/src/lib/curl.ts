/**
 * The curl command for the same POST /api/document the Generate page makes, as multipart form fields exactly
 * as the interface describes them. The token is left as $DOCLOOM_TOKEN (create one on the Tokens page) so the
 * GUI's own key never lands in a clipboard or a shell history.
 */

/** Quotes a value for POSIX shells: single quotes, with embedded single quotes closed and escaped. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

export function curlCommand(options: { baseUrl: string; templateUuid: string; data: unknown; test: boolean }): string {
  const lines = [
    `curl -X POST ${shellQuote(`${options.baseUrl}/api/document`)}`,
    `-H "Authorization: Bearer $DOCLOOM_TOKEN"`,
    `-H 'Accept: application/json'`,
    `-F ${shellQuote(`template_id=${options.templateUuid}`)}`,
    `-F ${shellQuote(`data=${JSON.stringify(options.data)}`)}`,
    `-F 'output_type=pdf'`,
    `-F 'test=${options.test ? 1 : 0}'`,
  ];
  return lines.join(' \\\n  ');
}
