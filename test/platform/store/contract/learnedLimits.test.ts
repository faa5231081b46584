import { expect, it } from "vitest";
import { describeContract } from "./backends.js";

const SERVICE = "https://fleet.example";

describeContract("LearnedLimitsRepository", (backend) => {
  it("keeps limits per service and endpoint; another connection reads them", async () => {
    const s = await backend.open();
    expect(await s.limits.load(SERVICE)).toEqual({});
    await s.limits.save(SERVICE, "stops", { maxDays: 31 });
    await s.limits.save(SERVICE, "temperatures", { maxVehicles: 10, maxDays: 7.5 });
    await s.limits.save("http://127.0.0.1:4010", "stops", { maxDays: 3 });
    await s.limits.save(SERVICE, "refills", {});
    const again = s.replica();
    expect(await again.limits.load(SERVICE)).toEqual({
      stops: { maxDays: 31 },
      temperatures: { maxVehicles: 10, maxDays: 7.5 },
      refills: {},
    });
    expect(await again.limits.load("http://127.0.0.1:4010")).toEqual({ stops: { maxDays: 3 } });
  });

  it("each dimension keeps the tighter value; a missing one does not erase what is stored", async () => {
    const s = await backend.open();
    await s.limits.save(SERVICE, "stops", { maxDays: 31 });
    await s.limits.save(SERVICE, "stops", { maxVehicles: 5 });
    await s.limits.save(SERVICE, "stops", { maxDays: 40, maxVehicles: 8 });
    expect(await s.limits.load(SERVICE)).toEqual({ stops: { maxVehicles: 5, maxDays: 31 } });
    await s.limits.save(SERVICE, "stops", { maxDays: 14 });
    await s.limits.save(SERVICE, "stops", { maxDays: 2.25 });
    expect(await s.limits.load(SERVICE)).toEqual({ stops: { maxVehicles: 5, maxDays: 2.25 } });
    await s.limits.forget(SERVICE);
    expect(await s.limits.load(SERVICE)).toEqual({});
  });

  it("concurrent lessons from two replicas keep the tightest", async () => {
    const s = await backend.open();
    const other = s.replica();
    await Promise.all(
      [9, 4, 7, 3, 8, 5].map((maxVehicles, i) =>
        (i % 2 ? other : s).limits.save(SERVICE, "way", { maxVehicles, maxDays: 40 - maxVehicles }),
      ),
    );
    expect(await s.limits.load(SERVICE)).toEqual({ way: { maxVehicles: 3, maxDays: 31 } });
  });

  it("refuses nonsense limits", async () => {
    const s = await backend.open();
    await expect(s.limits.save(SERVICE, "stops", { maxVehicles: 0 })).rejects.toThrow(/CHECK/);
    await expect(s.limits.save(SERVICE, "stops", { maxDays: 0 })).rejects.toThrow(/CHECK/);
    expect(await s.limits.load(SERVICE)).toEqual({});
  });
});
