// How long each OAuth credential lives (runtime's oauth rules, which the gateway's documents state
// too; their material is in credentials.ts).
export { accessTokenSeconds, authorizationCodeSeconds, refreshTokenSeconds } from '@voice/runtime/oauth';

export const secondsFrom = (now: Date, seconds: number): string => new Date(now.getTime() + seconds * 1000).toISOString();
