/**
 * DOCLOOM_DATABASE_URL: checked at start, before any connection, so a typo is refused with the setting's name.
 * The URL carries the password: it is handed to the client only; messages name host, port and database.
 */

export const DATABASE_URL_VARIABLE = 'DOCLOOM_DATABASE_URL';

export interface DatabaseUrl {
  /** The URL as given (password included): for the client only, never for a message. */
  readonly connectionString: string;
  readonly host: string;
  readonly port: number;
  readonly database: string;
  /** "database on host:port": what messages name. */
  readonly describe: string;
}

function refuse(reason: string): Error {
  return new Error(`${DATABASE_URL_VARIABLE} is not a valid PostgreSQL URL (postgres://user:password@host:5432/database): ${reason}`);
}

export function parseDatabaseUrl(raw: string): DatabaseUrl {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw refuse('it cannot be read as a URL');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw refuse(`the scheme must be postgres: or postgresql:, not ${url.protocol}`);
  // A Unix socket may be named by ?host=/path (libpq's spelling); otherwise the URL's host part.
  const host = url.searchParams.get('host') || decodeURIComponent(url.hostname);
  if (!host) throw refuse('it names no host');
  const port = url.port === '' ? 5432 : Number(url.port);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!database || database.includes('/')) throw refuse('it names no database (the path after the host, e.g. /docloom)');
  return { connectionString: raw.trim(), host, port, database, describe: `database "${database}" on ${host}:${port}` };
}
