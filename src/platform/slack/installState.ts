import { createHash } from "node:crypto";
import { type InstallURLOptions, InvalidStateError, type StateStore } from "@slack/oauth";
import type { SharedState } from "../store/sharedState.js";

/**
 * The OAuth `state` of an install, usable once. @slack/oauth's ClearStateStore signs the state
 * and checks its age, but a signed, unexpired state can be presented again (a copied redirect
 * URL, a browser's back button): this remembers each state verified (in Redis with replicas,
 * so a second replica refuses it too) and refuses it the second time.
 */
export class OneTimeStateStore implements StateStore {
  constructor(
    private readonly signed: StateStore,
    private readonly used: SharedState,
    /** As long as a state is valid at all (ClearStateStore: 10 minutes). */
    private readonly validMs = 10 * 60_000,
  ) {}

  generateStateParam(installOptions: InstallURLOptions, now: Date): Promise<string> {
    return this.signed.generateStateParam(installOptions, now);
  }

  async verifyStateParam(now: Date, state: string): Promise<InstallURLOptions> {
    const options = await this.signed.verifyStateParam(now, state);
    const digest = createHash("sha256").update(state).digest("base64url");
    if (!(await this.used.firstSeen(`oauth-state:${digest}`, this.validMs))) {
      throw new InvalidStateError("The state was used already: start the install again");
    }
    return options;
  }
}
