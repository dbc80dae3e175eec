export { startPlatform, type RunningPlatform, type PlatformOptions } from './platform.js';
