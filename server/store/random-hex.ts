/**
 * Short random hex names (request ids, temp-file names) on the hot path. crypto.randomUUID() draws from a batch of
 * random bytes Node keeps; crypto.randomBytes() asks OpenSSL every time, which cost 30–70 µs per call on the
 * benchmark's VM (a CPU profile of the service put ~0.1 ms of each document's event-loop time there, two calls).
 */
import crypto from 'node:crypto';

/** `chars` (1–12) random hex characters: the first 48 bits of a version-4 UUID are all random. */
export function randomHex(chars: number): string {
  if (!Number.isInteger(chars) || chars < 1 || chars > 12) throw new RangeError(`randomHex: 1 to 12 characters, not ${chars}`);
  const uuid = crypto.randomUUID();
  return (uuid.slice(0, 8) + uuid.slice(9, 13)).slice(0, chars);
}
