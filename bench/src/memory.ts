// Samples the resident memory of one process or of a group of them (the cluster's children) from
// /proc/<pid>/status: VmRSS now, and VmHWM, the kernel's peak over each process's life.
import { readFileSync } from 'node:fs';

export interface MemoryReading {
  /** Highest VmRSS seen by the sampler, in MB (for a group: the highest sum over its processes at one sample). */
  sampledPeakRssMb: number;
  /** The kernel's high-water mark of the RSS (VmHWM), in MB, at the last sample (for a group: the sum of each process's). */
  highWaterMarkMb: number;
  samples: number;
  /** For a group: each process's own VmHWM in MB, by name. */
  perProcessHighWaterMarkMb?: Record<string, number>;
}

function readKb(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match?.[1] === undefined ? undefined : Number(match[1]);
  } catch {
    return undefined;
  }
}

/** The processes to sample, by name; asked at every sample, so a restarted child is followed. */
export type SampledProcesses = () => Record<string, number | undefined>;

export class RssSampler {
  private peakKb = 0;
  private readonly hwmKb = new Map<string, number>();
  private samples = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly processes: SampledProcesses;

  /** One process by pid, or a group by name. */
  constructor(processes: number | SampledProcesses, private readonly intervalMs = 200) {
    this.processes = typeof processes === 'number' ? () => ({ process: processes }) : processes;
  }

  start(): void {
    this.sample();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
  }

  /** Takes a last sample and stops. */
  stop(): MemoryReading {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.sample();
    const perProcess = Object.fromEntries([...this.hwmKb].map(([name, kb]) => [name, kb / 1024]));
    const totalHwmKb = [...this.hwmKb.values()].reduce((sum, kb) => sum + kb, 0);
    return {
      sampledPeakRssMb: this.peakKb / 1024,
      highWaterMarkMb: totalHwmKb / 1024,
      samples: this.samples,
      ...(this.hwmKb.size > 1 ? { perProcessHighWaterMarkMb: perProcess } : {}),
    };
  }

  private sample(): void {
    let totalKb = 0;
    let seen = 0;
    for (const [name, pid] of Object.entries(this.processes())) {
      if (pid === undefined) continue;
      const rss = readKb(pid, 'VmRSS');
      const hwm = readKb(pid, 'VmHWM');
      if (rss !== undefined) {
        totalKb += rss;
        seen += 1;
      }
      if (hwm !== undefined) this.hwmKb.set(name, Math.max(this.hwmKb.get(name) ?? 0, hwm));
    }
    if (seen > 0) {
      this.peakKb = Math.max(this.peakKb, totalKb);
      this.samples += 1;
    }
  }
}
