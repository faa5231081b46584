/**
 * A vehicle of the simulated fleet that drives every day, weekends and holidays included (a reefer:
 * a cold chain does not stop; src/simulator/schedule.ts). A test that asks about "yesterday" or
 * "last week" takes it, so that its answer has distance and litres whatever today's date is.
 */
export function drivesEveryDay<V extends { reefer?: unknown }>(vehicles: readonly V[]): V {
  const reefer = vehicles.find((v) => v.reefer !== undefined);
  if (!reefer) throw new Error("the simulated fleet has no reefer");
  return reefer;
}
