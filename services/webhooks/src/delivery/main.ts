// The delivery worker's own process (the distributed mode): until SIGTERM.
import { runProcess } from '@voice/runtime/process';
import { startWebhookDelivery } from './worker.js';

runProcess('webhooks-delivery', startWebhookDelivery);
