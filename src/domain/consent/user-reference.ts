/** A user reference is 1..255 characters (code points), any but NUL. */
export const USER_REFERENCE_MAX = 255;
