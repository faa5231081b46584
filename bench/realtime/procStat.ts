import { readFileSync } from "node:fs";

/**
 * A process's own figures from /proc (Linux), read from outside it: the bench measures the built
 * bot as a separate process, so its CPU and memory are read the way `ps` reads them.
 */

/** User and system CPU time of the process so far, in ms (10 ms steps: the kernel counts ticks). */
export function readCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name (field 2) may hold spaces: the fields after it start past its ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Resident memory of the process now, in MB. */
export function readRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
  return kb === undefined ? Number.NaN : Number(kb) / 1024;
}
