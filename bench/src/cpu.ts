// Measures how busy a process (or the processes of a cluster, summed) was over an interval (user+system time from /proc/<pid>/stat), in % of one core.
import { readFileSync } from 'node:fs';

const ticksPerSecond = 100;

/** utime + stime of the process, in seconds. */
function cpuSecondsOf(pid: number): number {
  // The command name may contain spaces, so fields are counted after its closing parenthesis.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the name: state is field 3, utime field 14, stime field 15 (1-based in proc(5)).
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

export interface CpuUsage {
  serverPercent: number;
  loadGeneratorPercent: number;
}

/** Starts measuring the server's processes and this (load-generator) process; call the result to stop. */
export function startCpuMeter(serverPids: number | number[]): () => CpuUsage {
  const pids = typeof serverPids === 'number' ? [serverPids] : serverPids;
  const startedAt = process.hrtime.bigint();
  const server = pids.map(cpuSecondsOf);
  const self = process.cpuUsage();
  return () => {
    const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
    const used = process.cpuUsage(self);
    const serverSeconds = pids.reduce((sum, pid, index) => sum + cpuSecondsOf(pid) - server[index]!, 0);
    return {
      serverPercent: (100 * serverSeconds) / seconds,
      loadGeneratorPercent: (100 * (used.user + used.system)) / 1e6 / seconds,
    };
  };
}
