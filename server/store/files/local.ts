/** The data folder as a FileStore: DocumentFiles (fsync, rename, folder fsync) passed through unchanged. */
import fs from 'node:fs';
import type { DocumentFiles } from '../document-files.js';
import type { FileStore } from './file-store.js';

export function localFileStore(files: DocumentFiles): FileStore {
  return {
    kind: 'local',
    place: (id, ext, bytes, variant) => files.place(id, ext, bytes, variant),
    async open(id, ext, variant) {
      const found = await files.stat(id, ext, variant);
      return found && { size: found.size, stream: async () => fs.createReadStream(found.path) };
    },
    remove: (id, ext) => files.remove(id, ext),
    cloud: async () => null,
    ping: () => files.ping(),
  };
}
