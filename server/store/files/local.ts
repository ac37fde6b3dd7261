/** The data folder as a FileStore: DocumentFiles (fsync, rename, folder fsync) passed through unchanged. */
import fs from 'node:fs';
import type { DocumentFiles } from '../document-files.js';
import type { FileStore } from './file-store.js';

export function localFileStore(files: DocumentFiles): FileStore {
  return {
    kind: 'local',
    place: (id, ext, bytes, variant) => files.place(id, ext, bytes, variant),
    prepare: (id, ext, variant) => files.prepare(id, ext, variant),
    async open(id, ext, variant) {
      const found = await files.stat(id, ext, variant);
      return found && { size: found.size, stream: async () => fs.createReadStream(found.path) };
    },
    remove: (id, ext) => files.remove(id, ext),
    putKey: (key, source) => files.putKey(key, source),
    async openKey(key) {
      const file = files.keyPath(key);
      const size = await fs.promises.stat(file).then(
        (st) => st.size,
        (err: NodeJS.ErrnoException) => {
          if (err.code === 'ENOENT') return undefined;
          throw err;
        },
      );
      return size === undefined ? undefined : { size, stream: async () => fs.createReadStream(file) };
    },
    removeKey: (key) => files.removeKey(key),
    cloud: async () => null,
    ping: () => files.ping(),
  };
}
