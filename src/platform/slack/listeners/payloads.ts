/** JSON carried by Slack payloads (a button's value, a modal's private_metadata), read with its schema. */
import type { z } from "zod";

/** A JSON value (a button's value, a modal's private_metadata) read with its schema; undefined when it does not fit. */
export function parseJson<T>(schema: z.ZodType<T>, text: string | undefined): T | undefined {
  if (!text) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
