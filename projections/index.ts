import { consentsProjector } from './consents/consents.projector.js';
import { policyVersionsProjector } from './policy-versions/policy-versions.projector.js';
import type { Projector } from '../src/followers/projector.js';
import { userStatusProjector } from './user-status/user-status.projector.js';
import { purposesProjector } from './purposes/purposes.projector.js';
import { auditLogProjector } from './audit-log/audit-log.projector.js';

/** Every read model's projector, in the order the runner applies them. */
export const allProjectors: readonly Projector[] = [
  policyVersionsProjector,
  consentsProjector,
  userStatusProjector,
  purposesProjector,
  auditLogProjector,
];
