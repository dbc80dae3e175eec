// Describes the machine a run happened on, and how busy it was when the run began.
import { cpus, availableParallelism, loadavg, type as osType, release } from 'node:os';

export const describeMachine = () => ({
  nproc: availableParallelism(),
  node: process.version,
  platform: `${osType()} ${release()} ${process.arch}`,
  cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
  loadAverage: loadavg(),
});
