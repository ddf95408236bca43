import path from 'node:path';
import type { AppConfig } from '../../config/env.ts';
import { localStore, s3Store, type ObjectStore } from './backends.ts';

/** S3 when all S3_* settings are given, else files under DATA_DIR/storage. */
export function createObjectStore(config: AppConfig): ObjectStore {
  return config.s3 ? s3Store(config.s3) : localStore(path.join(config.dataDir, 'storage'));
}
