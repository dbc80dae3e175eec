// Describes the machine a run happened on.
import { cpus, availableParallelism, type as osType, release } from 'node:os';

export const describeMachine = () => ({
  nproc: availableParallelism(),
  node: process.version,
  platform: `${osType()} ${release()} ${process.arch}`,
  cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
});
