// The sandbox voice runtime as the platform uses it: how to start it and where its stream endpoint is.
export { startVoiceSandbox, type StartedVoiceSandbox, type VoiceSandboxOptions } from './main.js';
export { readVoiceSandboxConfig, type VoiceSandboxConfig } from './config.js';
export { mediaUrlOf } from './server.js';
