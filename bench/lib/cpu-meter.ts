import { readdirSync, readFileSync } from 'node:fs';

/** Where the machine's CPU went during a measured interval, in % of all cores. */
export interface Disturbance {
  /** Used by processes other than the benchmark's own (plus interrupt work: ~3% under heavy loopback traffic). */
  othersPercent: number;
  /** Taken by the hypervisor for other guests. */
  stealPercent: number;
}

/** Above this, a row measured the machine's other work as much as the code under test. */
export const DISTURBED_PERCENT = 10;

/**
 * Starts watching the machine's CPU (Linux /proc). `ours` are the benchmark's child processes, or
 * a function listing them when they come and go (database backends); this process counts as ours
 * too. The returned function ends the interval. Lets a reader tell a slow row from one that ran
 * while something else used the machine.
 */
export function startCpuMeter(ours: number[] | (() => number[])): () => Disturbance {
  const list = typeof ours === 'function' ? ours : () => ours;
  const startPids = [process.pid, ...list()];
  const start = { machine: machineTicks(), ticks: new Map(startPids.map((pid) => [pid, processTicks(pid)])) };
  return () => {
    const end = machineTicks();
    const total = end.total - start.machine.total;
    // A process that started during the interval counts from zero.
    const pids = new Set([process.pid, ...list()]);
    const oursTicks = sum([...pids].map((pid) => processTicks(pid) - (start.ticks.get(pid) ?? 0)));
    const others = end.busy - start.machine.busy - oursTicks;
    const percent = (ticks: number) => (total > 0 ? Math.max(0, Math.round((100 * ticks) / total)) : 0);
    return { othersPercent: percent(others), stealPercent: percent(end.steal - start.machine.steal) };
  };
}

/** Whether a row should be rerun on a quieter machine. */
export const disturbed = (d: Disturbance): boolean => d.othersPercent + d.stealPercent > DISTURBED_PERCENT;

/** PIDs of every PostgreSQL server process on the machine: a database benchmark's own work. */
export function postgresPids(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Machine-wide CPU ticks from the `cpu` line of /proc/stat. */
function machineTicks(): { total: number; busy: number; steal: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = line.trim().split(/\s+/).slice(1).map(Number);
  const total = user + nice + system + idle + iowait + irq + softirq + steal;
  return { total, busy: total - idle - iowait - steal, steal };
}

/** Linux reports process times in USER_HZ ticks, fixed at 100 per second for user space. */
const TICK_MS = 10;

/** CPU time (user + system) one process has used so far, in milliseconds, at tick resolution. */
export function cpuMillisOf(pid: number): number {
  return processTicks(pid) * TICK_MS;
}

/**
 * The kernel's share of {@link cpuMillisOf} (system time: syscalls, and on loopback the TCP work
 * and wake-ups of the peer that a socket write does in the writer's time), in milliseconds.
 */
export function systemCpuMillisOf(pid: number): number {
  return processTimes(pid).system * TICK_MS;
}

/** User + system ticks of one process (all its threads); 0 once it has exited. */
function processTicks(pid: number): number {
  const { user, system } = processTimes(pid);
  return user + system;
}

/** User and system ticks of one process (all its threads); 0 once it has exited. */
function processTimes(pid: number): { user: number; system: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name (which may contain spaces): utime is the 12th.
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    return { user: Number(fields[11]), system: Number(fields[12]) };
  } catch {
    return { user: 0, system: 0 };
  }
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** Resident memory of process `pid`, in MiB (Linux /proc); 0 once it has gone. */
export function residentMiB(pid: number): number {
  const status = (() => {
    try {
      return readFileSync(`/proc/${pid}/status`, 'utf8');
    } catch {
      return '';
    }
  })();
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}
