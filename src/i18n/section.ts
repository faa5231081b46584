/**
 * The shape of a catalogue section and the checks that keep the two languages in step.
 *
 * A message is a plain function that returns the text: no template is parsed at run time.
 * English (`src/i18n/en/<area>.ts`) is the reference: its parameter types are written out.
 * Romanian (`src/i18n/ro/<area>.ts`) repeats the keys and leaves the parameters to the compiler:
 *
 *     export const account = { … } satisfies Translation<typeof en>;
 *     true satisfies SameParameters<typeof en, typeof account>;
 *
 * `satisfies Translation` fails on a missing or an extra key and on a parameter of another type;
 * `SameParameters` also fails when a Romanian message takes fewer parameters than the English
 * one (which plain assignability would allow), naming the keys that differ.
 */

/** One message: its parameters (none, a number, or one object of named values) → the text. */
export type Message = (...args: never[]) => string;

/** A section of a catalogue: messages by key. */
export type Section = Readonly<Record<string, Message>>;

type Params<F> = F extends (...args: infer P) => string ? P : never;

/**
 * What the Romanian section of an English one must satisfy: the same keys, each a message taking
 * the English parameters (given to unannotated parameters by the compiler) and returning text.
 */
export type Translation<E extends Section> = { readonly [K in keyof E]: (...args: Params<E[K]>) => string };

/** True when A and B are the same type (not merely assignable one way). */
export type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Keys whose parameters differ between E and R, or that only one of them has. */
export type ParameterMismatch<E, R> =
  | {
      [K in keyof E]: K extends keyof R ? (Same<Params<E[K]>, Params<R[K]>> extends true ? never : K) : K;
    }[keyof E]
  | Exclude<keyof R, keyof E>;

/** `true` when every message of R takes exactly the parameters of E's; else names the keys. */
export type SameParameters<E, R> = [ParameterMismatch<E, R>] extends [never]
  ? true
  : { parametersDifferIn: ParameterMismatch<E, R> };
