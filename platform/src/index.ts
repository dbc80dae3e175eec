export { startPlatform, type RunningPlatform, type PlatformOptions } from './platform.js';
export {
  startCluster,
  resolveClusterConfig,
  clusterProcesses,
  type RunningCluster,
  type ClusterOptions,
  type ClusterConfig,
  type ClusterProcessName,
  type ClusterServiceName,
  type ProcessStatus,
  type ProcessState,
} from './cluster.js';
export { platformNodeFlags } from './node-flags.js';
