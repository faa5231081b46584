/** Users, access tokens (JWT-looking, HMAC-signed) and login form parsing. */
import { createHmac, randomBytes } from "node:crypto";
import type { SimUser } from "./options.js";

export interface IssuedToken {
  jti: string;
  username: string;
  expiresAt: number;
  /** Set by the control endpoint: the token answers as expired from then on. */
  forcedExpired: boolean;
}

export type TokenCheck =
  | { ok: true; token: IssuedToken }
  | { ok: false; reason: "Unauthorized" | "TokenExpired"; username?: string };

const b64url = (data: string | Buffer) => Buffer.from(data).toString("base64url");

export const TOKEN_SCOPE = "CarPoolingAPI IdentityServerApi offline_access openid profile TrackGPSV4Api";

export class TokenIssuer {
  private readonly secret = randomBytes(32);
  private readonly tokens = new Map<string, IssuedToken>();

  issue(username: string, now: number, ttlSeconds: number): { accessToken: string; refreshToken: string } {
    const jti = randomBytes(12).toString("hex");
    const expiresAt = now + ttlSeconds * 1000;
    this.tokens.set(jti, { jti, username, expiresAt, forcedExpired: false });
    const header = b64url(JSON.stringify({ alg: "HS256", typ: "at+jwt" }));
    const claims = b64url(
      JSON.stringify({
        iss: "http://fleet-simulator",
        client_id: "TrackGPSV4",
        sub: username,
        name: username,
        iat: Math.floor(now / 1000),
        nbf: Math.floor(now / 1000),
        exp: Math.floor(expiresAt / 1000),
        jti,
        scope: TOKEN_SCOPE.split(" "),
        IsApiUser: "true",
      }),
    );
    const signature = createHmac("sha256", this.secret).update(`${header}.${claims}`).digest("base64url");
    const refreshToken = `${randomBytes(32).toString("hex").toUpperCase()}-1`;
    return { accessToken: `${header}.${claims}.${signature}`, refreshToken };
  }

  /** Reads "Bearer <token>" and checks signature, issue and expiry against the sim clock. */
  check(authorization: string | undefined, now: number): TokenCheck {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization?.trim() ?? "");
    if (!match) return { ok: false, reason: "Unauthorized" };
    const parts = match[1]!.split(".");
    if (parts.length !== 3) return { ok: false, reason: "Unauthorized" };
    const [header, claims, signature] = parts as [string, string, string];
    const expected = createHmac("sha256", this.secret).update(`${header}.${claims}`).digest("base64url");
    if (expected !== signature) return { ok: false, reason: "Unauthorized" };
    let jti: unknown;
    try {
      jti = (JSON.parse(Buffer.from(claims, "base64url").toString("utf8")) as { jti?: unknown }).jti;
    } catch {
      return { ok: false, reason: "Unauthorized" };
    }
    const token = typeof jti === "string" ? this.tokens.get(jti) : undefined;
    if (!token) return { ok: false, reason: "Unauthorized" };
    if (token.forcedExpired || now >= token.expiresAt) {
      return { ok: false, reason: "TokenExpired", username: token.username };
    }
    return { ok: true, token };
  }

  /** Username behind a token even when expired (for statistics), without validating it. */
  peekUsername(authorization: string | undefined): string | undefined {
    const claims = authorization?.trim().split(/\s+/)[1]?.split(".")[1];
    if (!claims) return undefined;
    try {
      const jti = (JSON.parse(Buffer.from(claims, "base64url").toString("utf8")) as { jti?: unknown }).jti;
      return typeof jti === "string" ? this.tokens.get(jti)?.username : undefined;
    } catch {
      return undefined;
    }
  }

  expire(username?: string): number {
    let count = 0;
    for (const token of this.tokens.values()) {
      if (username === undefined || token.username === username.toLowerCase()) {
        token.forcedExpired = true;
        count++;
      }
    }
    return count;
  }
}

export function normaliseUsername(username: string): string {
  return username.trim().toLowerCase();
}

export type LoginForm = { ok: true; username: string; password: string } | { ok: false; username?: string };

/**
 * Login form fields from application/x-www-form-urlencoded or multipart/form-data (the
 * document says "form data"; public clients use both). Field names are case-insensitive.
 */
export function parseLoginForm(contentType: string | undefined, body: Buffer): LoginForm {
  const type = (contentType ?? "").toLowerCase();
  const fields = new Map<string, string>();
  if (type.startsWith("application/x-www-form-urlencoded")) {
    for (const [key, value] of new URLSearchParams(body.toString("utf8")))
      fields.set(key.toLowerCase(), value);
  } else if (type.startsWith("multipart/form-data")) {
    const boundary = /boundary="?([^";]+)"?/i.exec(contentType ?? "")?.[1];
    if (!boundary) return { ok: false };
    for (const part of body.toString("utf8").split(`--${boundary}`)) {
      const name = /content-disposition:[^\r\n]*\bname="([^"]*)"/i.exec(part)?.[1];
      const split = part.indexOf("\r\n\r\n");
      if (name === undefined || split < 0) continue;
      fields.set(name.toLowerCase(), part.slice(split + 4).replace(/\r\n$/, ""));
    }
  } else {
    return { ok: false };
  }
  const username = fields.get("username");
  const password = fields.get("password");
  if (!username || !password) return username ? { ok: false, username } : { ok: false };
  return { ok: true, username, password };
}

export type { SimUser };
