import type { GrammarProblem } from "../../src/commands/types.js";
import { grammarProblemText } from "../../src/commands/views/grammarError.js";

/** What a grammar error tells an English reader (the words the tests pin). */
export function msg(error: { problem: GrammarProblem }): string {
  return grammarProblemText(error.problem, "en");
}
