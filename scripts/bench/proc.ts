import { readFileSync } from 'node:fs';

// Linux's /proc, read directly: the shop runs in its own process, and process.cpuUsage() only
// measures the caller. USER_HZ is 100 on every Linux that `getconf CLK_TCK` reports for.
const TICKS_PER_SECOND = 100;

/** User + system CPU time the process has used so far, in ms. */
export function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1000) / TICKS_PER_SECOND;
}

/** Resident memory of the process, in MB. */
export function rssMbOf(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

/** The machine's CPU time so far, in ticks: all of it, and what the hypervisor gave other guests (steal). */
export function machineTicks(): { total: number; steal: number } {
  // The first line of /proc/stat: cpu user nice system idle iowait irq softirq steal guest guest_nice.
  const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  return { total: ticks.reduce((a, b) => a + b, 0), steal: ticks[7] ?? 0 };
}
