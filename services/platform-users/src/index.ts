export { startPlatformUsersService } from './main.js';
