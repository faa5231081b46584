import type { GrammarProblem } from "../../../src/slack/grammar/types.js";
import { grammarProblemText } from "../../../src/slack/views/grammarError.js";

/** What a grammar error tells an English reader (the words the tests pin). */
export function msg(error: { problem: GrammarProblem }): string {
  return grammarProblemText(error.problem, "en");
}
