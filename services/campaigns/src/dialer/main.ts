// The campaigns dialer's own process (the distributed mode): until SIGTERM.
import { runProcess } from '@voice/runtime/process';
import { startCampaignDialer } from './worker.js';

runProcess('campaigns-dialer', startCampaignDialer);
