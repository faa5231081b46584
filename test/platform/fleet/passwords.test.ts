/**
 * Which password of a fleet account the service accepted last (issue 30, points 1 and 6): a link
 * holding a replaced password sends nothing, and a link with a wrong password never throws away
 * the token of the link that works. Against the simulator over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FleetClient } from "../../../src/platform/fleet/client.js";
import { UnauthorizedError } from "../../../src/platform/fleet/errors.js";
import { MemoryAcceptedPasswords } from "../../../src/platform/fleet/passwords.js";
import { directGate } from "../../../src/platform/fleet/seam.js";
import { type RunningSimulator, startSimulator } from "../../../src/simulator/index.js";

describe("MemoryAcceptedPasswords", () => {
  it("a password is superseded only once another was accepted after it", async () => {
    const passwords = new MemoryAcceptedPasswords();
    expect(await passwords.superseded("x", "one")).toBe(false);
    await passwords.accepted("x", "one", 1_000);
    expect(await passwords.superseded("x", "one")).toBe(false);
    // Someone offers a new one: not superseded before the service accepts it.
    expect(await passwords.superseded("x", "two")).toBe(false);
    await passwords.accepted("x", "two", 2_000);
    expect(await passwords.superseded("x", "one")).toBe(true);
    expect(await passwords.superseded("x", "two")).toBe(false);
    // A slow login answered after the newer one brings nothing back.
    await passwords.accepted("x", "one", 1_500);
    expect(await passwords.superseded("x", "one")).toBe(true);
    // Changed back: the old one is current again, the other outdated.
    await passwords.accepted("x", "one", 3_000);
    expect(await passwords.superseded("x", "one")).toBe(false);
    expect(await passwords.superseded("x", "two")).toBe(true);
    // Other accounts are their own.
    expect(await passwords.superseded("y", "one")).toBe(false);
    await passwords.forget("x");
    expect(await passwords.superseded("x", "two")).toBe(false);
  });
});

describe("FleetClient and changed passwords (simulator over HTTP)", () => {
  let sim: RunningSimulator;
  const logins = () =>
    sim.control.requests().filter((r) => r.endpoint === "login" && r.username === "carrier");
  const calls = () => sim.control.requests().filter((r) => r.username === "carrier");

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, minIntervalMs: 0, control: true, drift: false });
    sim.control.upsertUser({
      username: "carrier",
      password: "old",
      vehicleIds: sim.vehicles.slice(0, 3).map((v) => v.vehicleId),
    });
  });
  afterAll(async () => {
    await sim?.close();
  });

  const client = () =>
    new FleetClient({ baseUrl: sim.url, apiVersion: "2.0", timeZone: "Europe/Bucharest", gate: directGate });

  it("a link with the old password sends nothing once the service accepted the new one, token or not", async () => {
    const fleet = client();
    const stale = fleet.session({ username: "carrier", password: "old" });
    expect((await stale.vehicles()).length).toBe(3);
    sim.control.upsertUser({
      username: "carrier",
      password: "new",
      vehicleIds: sim.vehicles.slice(0, 3).map((v) => v.vehicleId),
    });
    // Someone links the new one: the service accepts it.
    const relinked = fleet.detachedSession({ username: "carrier", password: "new" });
    await relinked.login();
    fleet.adopt(relinked);
    const before = calls().length;
    // The stale link still holds a token the service may not have revoked: it is not used.
    const refused = await stale.vehicles().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UnauthorizedError);
    expect((refused as UnauthorizedError).reason).toBe("password-changed");
    expect((refused as UnauthorizedError).userFailure().code).toBe("unauthorized-password-changed");
    expect(calls().length).toBe(before);
    expect(await stale.standing()).toBe("outdated");
    // The new one works.
    expect((await fleet.session({ username: "carrier", password: "new" }).vehicles()).length).toBe(3);
  });

  it("a wrong password's refusal leaves the working link's token alone: no new login for it", async () => {
    sim.control.upsertUser({
      username: "carrier",
      password: "right",
      vehicleIds: sim.vehicles.slice(0, 3).map((v) => v.vehicleId),
    });
    const fleet = client();
    const working = fleet.session({ username: "carrier", password: "right" });
    await working.vehicles();
    const loginsBefore = logins().length;
    // A stale link (a password the service never accepted here): refused at its login.
    const wrong = fleet.session({ username: "carrier", password: "wrong" });
    await expect(wrong.vehicles()).rejects.toBeInstanceOf(UnauthorizedError);
    expect(logins().length).toBeGreaterThan(loginsBefore);
    const afterRefusal = logins().length;
    // The working link goes on with its own token: no login of its own is needed.
    await fleet.session({ username: "carrier", password: "right" }).vehicles();
    await working.vehicles();
    expect(logins().length).toBe(afterRefusal);
  });
});
