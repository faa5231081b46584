/** The values a transport's buttons and the list's Previous/Next carry, written and read back. */
import type { TransportView } from "../../types.js";

/** Value of every transport button: `{"u": codeUit, "id": transportUId}`. */
export interface TransportButtonValue {
  u: string;
  id: string;
  /** The list (task id) the card belongs to: an action re-renders that list with the card updated. */
  l?: string;
}

export function transportButtonValue(t: Pick<TransportView, "codeUit" | "uId">, listToken?: string): string {
  const value: TransportButtonValue = { u: t.codeUit.slice(0, 200), id: t.uId.slice(0, 200) };
  if (listToken) value.l = listToken.slice(0, 200);
  return JSON.stringify(value);
}

export function parseTransportButtonValue(value: string | undefined): TransportButtonValue | undefined {
  try {
    const parsed: unknown = JSON.parse(value ?? "");
    if (typeof parsed !== "object" || parsed === null) return undefined;
    const { u, id, l } = parsed as Record<string, unknown>;
    if (typeof u !== "string" || typeof id !== "string") return undefined;
    return typeof l === "string" ? { u, id, l } : { u, id };
  } catch {
    return undefined;
  }
}

/** Value of the list's Next/Previous buttons. */
export interface TransportListNavValue {
  /** Filter word (pending, active, paused, completed, all). */
  f: string;
  /** Search text, if any. */
  s?: string;
  /** Page index to show (0-based). */
  p: number;
}

export function parseTransportListNavValue(value: string | undefined): TransportListNavValue | undefined {
  try {
    const parsed: unknown = JSON.parse(value ?? "");
    if (typeof parsed !== "object" || parsed === null) return undefined;
    const { f, s, p } = parsed as Record<string, unknown>;
    if (typeof f !== "string" || typeof p !== "number" || !Number.isInteger(p) || p < 0) return undefined;
    return typeof s === "string" ? { f, s, p } : { f, p };
  } catch {
    return undefined;
  }
}
