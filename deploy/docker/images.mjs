#!/usr/bin/env node
// The images the one Dockerfile (at the repository root) builds: each process's workspace, the
// port it listens on and the variable naming its listen host, passed as build arguments.
//
//   node deploy/docker/images.mjs [--registry PREFIX] [--tag TAG] [name...]
// prints the `docker build` command of each image (all of them unless named); pipe it to `sh`.
import { fileURLToPath } from 'node:url';

/** Every process that gets an image. */
export const images = [
  { name: 'identity', workspace: 'services/identity', port: 50051, hostVariable: 'VOICE_IDENTITY_HOST' },
  { name: 'tools', workspace: 'services/tools', port: 50052, hostVariable: 'VOICE_TOOLS_HOST' },
  { name: 'telephony', workspace: 'services/telephony', port: 50053, hostVariable: 'VOICE_TELEPHONY_HOST' },
  { name: 'billing', workspace: 'services/billing', port: 50054, hostVariable: 'VOICE_BILLING_HOST' },
  { name: 'platform-users', workspace: 'services/platform-users', port: 50055, hostVariable: 'VOICE_PLATFORM_USERS_HOST' },
  { name: 'assistants', workspace: 'services/assistants', port: 50056, hostVariable: 'VOICE_ASSISTANTS_HOST' },
  { name: 'calls', workspace: 'services/calls', port: 50057, hostVariable: 'VOICE_CALLS_HOST' },
  { name: 'campaigns', workspace: 'services/campaigns', port: 50062, hostVariable: 'VOICE_CAMPAIGNS_HOST' },
  // Also the delivery worker's image (deploy/base/webhooks-delivery.yaml runs its other entry).
  { name: 'webhooks', workspace: 'services/webhooks', port: 50058, hostVariable: 'VOICE_WEBHOOKS_HOST' },
  // The sandbox voice runtime: a test double of the media path, for staging platforms on the sandbox carrier.
  { name: 'voice-sandbox', workspace: 'services/voice-sandbox', port: 50060, hostVariable: 'VOICE_SANDBOX_RUNTIME_HOST' },
  { name: 'gateway', workspace: 'gateway', port: 8080, hostVariable: 'HOST' },
];

/** The build arguments that make the Dockerfile this image. */
export const buildArgs = (image) => ({ WORKSPACE: image.workspace, PORT: String(image.port), HOST_VARIABLE: image.hostVariable });

export function buildCommand(image, { registry = 'voice', tag = 'dev' } = {}) {
  const args = Object.entries(buildArgs(image)).map(([name, value]) => `--build-arg ${name}=${value}`);
  return ['docker build', ...args, `-t ${registry}/${image.name}:${tag}`, '.'].join(' ');
}

function main() {
  const options = {};
  const names = [];
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--registry') options.registry = argv[++i];
    else if (argv[i] === '--tag') options.tag = argv[++i];
    else names.push(argv[i]);
  }
  const unknown = names.filter((name) => !images.some((image) => image.name === name));
  if (unknown.length > 0) {
    console.error(`no image named ${unknown.join(', ')}; the images are ${images.map((image) => image.name).join(', ')}`);
    process.exit(2);
  }
  for (const image of images) if (names.length === 0 || names.includes(image.name)) console.log(buildCommand(image, options));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
