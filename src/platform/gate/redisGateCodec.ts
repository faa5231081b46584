import { deserialize, serialize } from "node:v8";

/**
 * How one call's outcome crosses replicas: v8's structured clone (the format of
 * postMessage), so Dates, Maps, typed arrays and nested plain objects arrive as they left.
 * Class instances arrive as plain objects; the fleet client's answers are plain data.
 */

/** A class whose instances may be rebuilt on another replica from their own properties. */
export type ShareableErrorClass = abstract new (...args: never[]) => Error;

export type SharedOutcome =
  | { kind: "value"; value: unknown }
  | { kind: "error"; error: Error }
  /** The answer could not travel (a value v8 cannot clone, an error of an unknown class): ask again. */
  | { kind: "retry" };

const FORMAT = 1;

export class OutcomeCodec {
  private readonly classes = new Map<string, ShareableErrorClass>();

  constructor(shareableErrors: readonly ShareableErrorClass[] = []) {
    for (const errorClass of shareableErrors) this.classes.set(errorClass.name, errorClass);
  }

  encodeValue(value: unknown): Buffer | undefined {
    try {
      return serialize({ format: FORMAT, ok: true, value });
    } catch {
      return undefined; // a function, a symbol, a socket...: not shareable
    }
  }

  /**
   * An error of a registered class travels as its class name and own data properties
   * (name, message, stack, endpoint, status, failureReasons...): rebuilt on the prototype
   * of the same class, so `instanceof`, getters and methods work on the other replica.
   * Anything else is not shared: the callers there send their own call.
   */
  encodeError(error: unknown): Buffer | undefined {
    if (!(error instanceof Error)) return undefined;
    const prototype: unknown = Object.getPrototypeOf(error);
    const errorClass = this.classes.get(error.constructor.name);
    if (!errorClass || errorClass.prototype !== prototype) return undefined;
    const properties: Record<string, { value: unknown; writable: boolean; enumerable: boolean }> = {};
    for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(error))) {
      if (!("value" in descriptor)) continue;
      properties[key] = {
        value: descriptor.value,
        writable: descriptor.writable ?? true,
        enumerable: descriptor.enumerable ?? true,
      };
    }
    const encode = (props: typeof properties) =>
      serialize({ format: FORMAT, ok: false, errorClass: errorClass.name, properties: props });
    try {
      return encode(properties);
    } catch {
      // A cause that cannot be cloned (a socket error holding a handle): keep the rest.
      const { cause: _cause, ...withoutCause } = properties;
      try {
        return encode(withoutCause);
      } catch {
        return undefined;
      }
    }
  }

  /** "Ask again" for the callers on other replicas. */
  encodeRetry(): Buffer {
    return serialize({ format: FORMAT, retry: true });
  }

  decode(payload: Buffer): SharedOutcome {
    let decoded: unknown;
    try {
      decoded = deserialize(payload);
    } catch {
      return { kind: "retry" };
    }
    if (!isRecord(decoded) || decoded.format !== FORMAT) return { kind: "retry" };
    if (decoded.ok === true) return { kind: "value", value: decoded.value };
    if (decoded.ok !== false || typeof decoded.errorClass !== "string" || !isRecord(decoded.properties))
      return { kind: "retry" };
    const errorClass = this.classes.get(decoded.errorClass);
    if (!errorClass) return { kind: "retry" };
    const descriptors: PropertyDescriptorMap = {};
    for (const [key, entry] of Object.entries(decoded.properties)) {
      if (!isRecord(entry)) continue;
      descriptors[key] = {
        value: entry.value,
        writable: entry.writable !== false,
        enumerable: entry.enumerable !== false,
        configurable: true,
      };
    }
    const prototype: object = errorClass.prototype;
    const error: Error = Object.create(prototype);
    Object.defineProperties(error, descriptors);
    return { kind: "error", error };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
