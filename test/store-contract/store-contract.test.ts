/**
 * The repository contract (contract.ts) against each backend: the data folder (lowdb + record logs) and
 * PostgreSQL, on a throwaway cluster this file starts on a loopback port (test/helpers/pg-cluster.ts) and stops.
 * The PostgreSQL run skips, saying why, only where the server binaries are absent.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openLocalRepositories } from '../../server/store/local.js';
import { openPgRepositories } from '../../server/store/pg/index.js';
import { startPgCluster } from '../helpers/pg-cluster.js';
import { localFileStore } from '../../server/store/files/local.js';
import { DocumentFiles } from '../../server/store/document-files.js';
import { Layout } from '../../server/store/layout.js';
import { storeContract, type Backend } from './contract.js';

const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-contract-'));
let n = 0;

const local: Backend = {
  name: 'local data folder (lowdb, record logs)',
  async fresh() {
    const dir = path.join(temp, `local-${++n}`);
    return { open: () => openLocalRepositories(dir) };
  },
  async stop() {
    fs.rmSync(temp, { recursive: true, force: true });
  },
};

const cluster = await startPgCluster();
const postgres: Backend =
  typeof cluster === 'string'
    ? { name: 'PostgreSQL', skip: `PostgreSQL not available: ${cluster}`, fresh: () => Promise.reject(new Error(cluster)) }
    : {
        name: 'PostgreSQL',
        async fresh() {
          const url = await cluster.createDatabase();
          const cacheDir = path.join(temp, `pg-cache-${++n}`);
          // Batches' rows files on disk here; test/store-contract/file-store.test.ts runs the same keys against S3.
          const files = localFileStore(new DocumentFiles(new Layout(path.join(temp, `pg-files-${n}`))));
          return { open: () => openPgRepositories(url, { cacheDir, files }) };
        },
        stop: () => cluster.stop(),
      };

storeContract(local);
storeContract(postgres);
