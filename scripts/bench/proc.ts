import { readdirSync, readFileSync } from 'node:fs';

// Linux's /proc, read directly: the shop runs in processes of its own (a primary and its
// workers when it runs several), and process.cpuUsage() only measures the caller. USER_HZ is
// 100 on every Linux that `getconf CLK_TCK` reports for.
const TICKS_PER_SECOND = 100;

/** The fields of /proc/<pid>/stat after the command name (which is in parentheses and may hold spaces). */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined; // it has exited meanwhile
  }
}

/** The process and every process under it (a cluster primary's workers), the process first. */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = Number(statFields(Number(entry))?.[1]);
    children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i += 1) tree.push(...(children.get(tree[i]!) ?? []).sort((a, b) => a - b));
  return tree;
}

/**
 * User + system CPU time the process and the processes under it have used so far, in ms. A
 * process that exits between two readings takes its time with it.
 */
export function cpuMsOf(pid: number): number {
  let ticks = 0;
  for (const member of processTree(pid)) {
    const fields = statFields(member);
    if (fields) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** Resident memory of one process, in MB. */
export function rssMbOf(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

/** The machine's CPU time so far, in ticks: all of it, what the hypervisor gave other guests (steal), and what nobody used (idle). */
export function machineTicks(): { total: number; steal: number; idle: number } {
  // The first line of /proc/stat: cpu user nice system idle iowait irq softirq steal guest guest_nice.
  const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  return { total: ticks.reduce((a, b) => a + b, 0), steal: ticks[7] ?? 0, idle: (ticks[3] ?? 0) + (ticks[4] ?? 0) };
}

/** The first process whose command line matches `pattern` (a server the bench started through a script). */
export function processMatching(pattern: RegExp): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (pattern.test(readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' '))) return Number(entry);
    } catch {
      // it has exited meanwhile
    }
  }
  return undefined;
}
