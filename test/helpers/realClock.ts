/**
 * The environment for a program the tests start that must run on the machine's real clock even in
 * a calendar run (test/calendar/runAt.sh preloads libfaketime into every process): redis-server
 * (jemalloc's first clock_gettime recurses into libfaketime and the server hangs at start) and
 * Chromium (its processes hang under the preload). Both keep their own time in production too;
 * the calendar runs move Node's clock, which is where fleetbot reads the date.
 */
export function realClockEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name !== "LD_PRELOAD" && !name.startsWith("FAKETIME")),
  );
}
