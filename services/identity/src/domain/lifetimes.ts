// How long each OAuth credential lives (their material is in credentials.ts).

export const accessTokenSeconds = 3600;
export const refreshTokenSeconds = 30 * 24 * 3600;
export const authorizationCodeSeconds = 60;

export const secondsFrom = (now: Date, seconds: number): string => new Date(now.getTime() + seconds * 1000).toISOString();
