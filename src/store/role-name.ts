/** A PostgreSQL role name the grant accepts: a plain identifier, so it is never quoted wrongly. */
export const ROLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
