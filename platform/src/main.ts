// `npm start`: the whole platform on this machine, until SIGTERM or SIGINT.
import { createLogger } from '@voice/runtime/logger';
import { closeOnSignal, failStart } from '@voice/runtime/process';
import { readShutdownDeadlineMs } from '@voice/runtime/shutdown';
import { startPlatform } from './platform.js';

void startPlatform(process.env).then((platform) => {
  const logger = createLogger({ service: 'platform', level: 'info' });
  logger.info('platform ready', { url: platform.url, api: `${platform.url}/api/v1`, internal_transport: platform.internalTransport });
  closeOnSignal(platform, logger, readShutdownDeadlineMs(process.env, true));
}, failStart);
