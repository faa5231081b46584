/**
 * The fleet-account login form as a bench drives it through the fake Slack: the form that
 * `/fleet login` (or `login workspace`) opened, filled in and submitted by a signed
 * view_submission, then the bot's "Linked" or ":x:" answer waited for. Shared by the rows that
 * link accounts before they measure (bench/workspaces.ts, bench/realtime/schedules.ts).
 */
import { INPUTS } from "../src/platform/slack/actionIds.js";
import type { FakeWorkspace, SlackDriver } from "../src/sandbox/fakeSlack/index.js";
import { until } from "./realtime/harness.js";

export interface LoginFormUser {
  userId: string;
  username: string;
  password: string;
}

/** The views.open after Web API call number `mark`: whether it opened, or Slack's error. */
export async function loginFormOpened(
  ws: FakeWorkspace,
  mark: number,
  who: string,
): Promise<{ ok: boolean; error?: string }> {
  const opened = await until(
    `the login form of ${who}`,
    () => ws.calls.slice(mark).find((c) => c.method === "views.open"),
    15_000,
    50,
  );
  return { ok: opened.ok, ...(opened.error !== undefined ? { error: opened.error } : {}) };
}

/**
 * Submits the user's open login form with their credentials and waits for the bot's answer;
 * throws when the answer is a refusal. Returns the answer's text (the Web API call's arguments).
 */
export async function submitLoginForm(
  driver: SlackDriver,
  ws: FakeWorkspace,
  user: LoginFormUser,
  answerTimeoutMs: number,
): Promise<string> {
  const view = [...ws.viewsSnapshot().values()]
    .filter((v) => v.user === user.userId && v.type === "modal" && v.open)
    .at(-1);
  if (!view) throw new Error(`no open login form for ${user.userId}`);
  const mark = ws.calls.length;
  const submitted = await driver.viewSubmission({
    userId: user.userId,
    viewId: view.id,
    values: {
      [INPUTS.loginUsername.block]: { [INPUTS.loginUsername.action]: user.username },
      [INPUTS.loginPassword.block]: { [INPUTS.loginPassword.action]: user.password },
    },
  });
  if (submitted.status !== 200) throw new Error(`login form of ${user.userId}: HTTP ${submitted.status}`);
  const answer = await until(
    `the link of ${user.username}`,
    () =>
      ws.calls
        .slice(mark)
        .map((c) => JSON.stringify(c.args))
        .find((text) => text.includes(":white_check_mark: Linked") || text.includes(":x:")),
    answerTimeoutMs,
    50,
  );
  if (!answer.includes("Linked"))
    throw new Error(`link of ${user.username} refused: ${answer.slice(0, 300)}`);
  return answer;
}
