/** Shown in place of a stored secret; sent back in an update, it keeps that secret. */
export const secretMask = '\u2022\u2022\u2022';
