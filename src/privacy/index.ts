export { masterKeyOpens, rotateMasterKey, sealedUnderMasterKey, type DataKey } from './key-store.js';
export { withRedactedRequests } from './log-redaction.js';
export { configuredMasterKey, generatedKeyWarning, loadMasterKey, MasterKeyError, parseMasterKey } from './master-key.js';
export { Privacy, sealedAad, type ConsentPersonal } from './privacy.js';
export { readSealed, type Sealing } from './sealing.js';
