/** Talks to the simulator over HTTP the way a client would. */
import type { RunningSimulator } from "../../src/simulator/index.js";

export const V = "api-version=2.0";

export interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes
  json: any;
}

async function read(res: Response): Promise<Answer> {
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  return { status: res.status, headers: res.headers, json };
}

export async function login(
  sim: RunningSimulator,
  username: string,
  password: string,
  query = V,
): Promise<Answer> {
  const res = await fetch(`${sim.url}/api/authentication/login?${query}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username, password }).toString(),
  });
  return read(res);
}

export interface Session {
  token: string;
  get(path: string, query?: string): Promise<Answer>;
  post(path: string, body: unknown, query?: string): Promise<Answer>;
}

export function session(sim: RunningSimulator, token: string): Session {
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  return {
    token,
    get: async (path, query = V) => read(await fetch(`${sim.url}${path}?${query}`, { headers })),
    post: async (path, body, query = V) =>
      read(
        await fetch(`${sim.url}${path}?${query}`, { method: "POST", headers, body: JSON.stringify(body) }),
      ),
  };
}

export async function signIn(
  sim: RunningSimulator,
  username = "demo",
  password = username,
): Promise<Session> {
  const answer = await login(sim, username, password);
  if (answer.status !== 200) throw new Error(`login ${username}: ${answer.status}`);
  return session(sim, answer.json.access_token);
}

export async function control(sim: RunningSimulator, path: string, body: unknown = {}): Promise<Answer> {
  return read(
    await fetch(`${sim.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
}

export async function getJson(sim: RunningSimulator, path: string): Promise<Answer> {
  return read(await fetch(`${sim.url}${path}`));
}

/** A hand-driven clock: 2026-11-03 12:00 UTC (14:00 in Bucharest) unless told otherwise. */
export function manualClock(start = Date.parse("2026-11-03T12:00:00Z")) {
  let now = start;
  return {
    now: () => now,
    set: (t: number) => {
      now = t;
    },
    advance: (ms: number) => {
      now += ms;
    },
  };
}
