import type { Settings } from '../config.js';
import { configuredMasterKey, MASTER_KEY_FILE_NAME } from '../privacy/master-key.js';
import { Privacy } from '../privacy/privacy.js';
import type { Store } from '../store/store.js';
import { UsageError } from './command.js';

/**
 * The service's own data keys and lookup secret, opened with its master key: never one generated
 * here, which could open nothing and would seal what nobody could open.
 */
export async function servicePrivacy(store: Store, settings: Settings): Promise<Privacy> {
  const master = configuredMasterKey(settings);
  if (!master) {
    throw new UsageError(
      `no master key: set MASTER_KEY or MASTER_KEY_FILE as the service has it, or DATA_DIR to the folder holding its ${MASTER_KEY_FILE_NAME} (the service makes one there on its first start, when neither is set)`,
    );
  }
  return Privacy.open(store.db, master.key, { openThreads: 0 });
}
