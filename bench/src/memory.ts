// Samples a process's resident memory from /proc/<pid>/status (VmRSS now, VmHWM the kernel's peak).
import { readFileSync } from 'node:fs';

export interface MemoryReading {
  /** Highest VmRSS seen by the sampler, in MB. */
  sampledPeakRssMb: number;
  /** The kernel's high-water mark of the process's RSS (VmHWM), in MB, at the last sample. */
  highWaterMarkMb: number;
  samples: number;
}

function readKb(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match?.[1] === undefined ? undefined : Number(match[1]);
  } catch {
    return undefined;
  }
}

export class RssSampler {
  private peakKb = 0;
  private hwmKb = 0;
  private samples = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly pid: number, private readonly intervalMs = 200) {}

  start(): void {
    this.sample();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
  }

  /** Takes a last sample and stops. */
  stop(): MemoryReading {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.sample();
    return { sampledPeakRssMb: this.peakKb / 1024, highWaterMarkMb: this.hwmKb / 1024, samples: this.samples };
  }

  private sample(): void {
    const rss = readKb(this.pid, 'VmRSS');
    const hwm = readKb(this.pid, 'VmHWM');
    if (rss !== undefined) {
      this.peakKb = Math.max(this.peakKb, rss);
      this.samples += 1;
    }
    if (hwm !== undefined) this.hwmKb = Math.max(this.hwmKb, hwm);
  }
}
