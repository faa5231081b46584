import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CredentialsKeyMissingError, LinkedAccountUnreadableError } from "../../../src/store/accountStore.js";
import { describeContract, NOW } from "./backends.js";

describeContract("AccountRepository", (backend) => {
  describe("linking", () => {
    it("keeps the password sealed at rest and gives it back to its user", async () => {
      const s = await backend.open();
      expect(s.accounts.canStore).toBe(true);
      await s.accounts.link("U1", "dispatcher@example.ro", "Parola-Secreta-42");
      expect(await s.accounts.get("U1")).toEqual({
        slackUser: "U1",
        username: "dispatcher@example.ro",
        password: "Parola-Secreta-42",
        linkedAt: NOW,
      });
      expect(await s.rawContains("dispatcher@example.ro")).toBe(true);
      expect(await s.rawContains("Parola-Secreta-42")).toBe(false);
      expect(await s.accounts.get("U2")).toBeUndefined();
    });

    it("refuses to link without CREDENTIALS_KEY", async () => {
      const s = await backend.open({ key: undefined });
      expect(s.accounts.canStore).toBe(false);
      await expect(s.accounts.link("U1", "x", "y")).rejects.toThrow(CredentialsKeyMissingError);
      expect(await s.accounts.usernameOf("U1")).toBeUndefined();
    });

    it("linking again replaces the account; unlinking says whether there was one", async () => {
      const s = await backend.open();
      await s.accounts.link("U1", "first@example.ro", "one");
      s.clock.now = NOW + 1000;
      await s.accounts.link("U1", "second@example.ro", "two");
      expect(await s.accounts.get("U1")).toMatchObject({
        username: "second@example.ro",
        password: "two",
        linkedAt: NOW + 1000,
      });
      expect(await s.accounts.isLinked("first@example.ro")).toBe(false);
      expect(await s.accounts.isLinked("second@example.ro")).toBe(true);
      expect(await s.accounts.unlink("U1")).toBe(true);
      expect(await s.accounts.unlink("U1")).toBe(false);
      expect(await s.accounts.get("U1")).toBeUndefined();
      expect(await s.accounts.isLinked("second@example.ro")).toBe(false);
    });

    it("isLinked and usernameOf, with two users on one fleet account", async () => {
      const s = await backend.open();
      await s.accounts.link("U1", "shared@example.ro", "pw");
      await s.accounts.link("U2", "shared@example.ro", "pw");
      expect(await s.accounts.usernameOf("U2")).toBe("shared@example.ro");
      expect(await s.accounts.usernameOf("U3")).toBeUndefined();
      await s.accounts.unlink("U1");
      expect(await s.accounts.isLinked("shared@example.ro")).toBe(true);
      await s.accounts.unlink("U2");
      expect(await s.accounts.isLinked("shared@example.ro")).toBe(false);
      expect(await s.accounts.isLinked("nobody@example.ro")).toBe(false);
    });
  });

  describe("a changed key", () => {
    it("an account this key cannot open is named, with the way out, and listed by unreadable()", async () => {
      const s = await backend.open();
      await s.accounts.link("U1", "one@example.ro", "pw1");
      await s.accounts.link("U2", "two@example.ro", "pw2");
      const changedKey = s.replica({ key: randomBytes(32) });
      await expect(changedKey.accounts.get("U1")).rejects.toThrow(LinkedAccountUnreadableError);
      await expect(changedKey.accounts.get("U1")).rejects.toThrow(/one@example.ro.*\/fleet login/);
      await changedKey.accounts.link("U3", "three@example.ro", "pw3");
      expect(await changedKey.accounts.unreadable()).toEqual([
        { slackUser: "U1", username: "one@example.ro" },
        { slackUser: "U2", username: "two@example.ro" },
      ]);
      expect(await s.accounts.unreadable()).toEqual([{ slackUser: "U3", username: "three@example.ro" }]);

      const noKey = s.replica({ key: undefined });
      await expect(noKey.accounts.get("U2")).rejects.toThrow(LinkedAccountUnreadableError);
      expect((await noKey.accounts.unreadable()).map((a) => a.slackUser)).toEqual(["U1", "U2", "U3"]);
      // Reading a username needs no key.
      expect(await noKey.accounts.usernameOf("U2")).toBe("two@example.ro");
    });
  });
});
