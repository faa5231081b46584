/**
 * What the Slack side knows of one task kind (src/features/renderRegistry.ts holds one per kind):
 * how a task of it is described and answered, and the hooks delivery calls for it. Delivery names
 * no kind: whatever a kind's answer does beyond a message (an e-Transport card refreshed in the
 * places it was shown, a list shown again with a card under way) reaches it through these hooks.
 */
import type { Language } from "../i18n/language.js";
import type { Rendered } from "../platform/slack/rendered.js";
import type { RenderContext } from "../platform/slack/rendering/renderContext.js";
import type {
  StaleAnswerRefresh,
  StoredAnswers,
  UnderWay,
} from "../platform/slack/rendering/storedAnswers.js";
import type { SlackMessage } from "../platform/slack/views/message.js";
import type { TaskKind, TaskOf, TaskResult } from "./taskKinds.js";

export interface KindRenderer<K extends TaskKind> {
  /**
   * One line saying what the task is, as mrkdwn in `language` (describeTask); `task` is
   * undefined when its stored parameters no longer fit the kind.
   */
  describe(task: TaskOf<K> | undefined, language: Language): string;
  /** The answer of a finished task that has its result. Pure: writes nothing. */
  render(
    task: TaskOf<K>,
    result: TaskResult<K>,
    context: RenderContext,
    page: number,
  ): Rendered | Promise<Rendered>;
  /** Stored tasks the answer may show (RenderContext.task is asked only for these). */
  relatedTaskIds?(task: TaskOf<K>): string[];
  /**
   * A failed or cancelled task's ending where its reply says the message stays (`listStays`):
   * the message it was asked from, shown again with the ending above it; undefined when gone.
   */
  endingInPlace?(task: TaskOf<K>, ending: SlackMessage, context: RenderContext): SlackMessage | undefined;
  /**
   * Delivery, while the task waits: instead of a progress bar, the message it was asked from
   * with `phrase()` (where the task stands, worded when the message is built) on the card under
   * way; undefined when there is none.
   */
  underWay?(
    task: TaskOf<K>,
    underWay: UnderWay,
    phrase: () => string,
    language: Language,
    answers: StoredAnswers,
  ): Promise<SlackMessage | undefined>;
  /**
   * Delivery, once a done task's answer is out: how to bring each earlier answer (the account's
   * recent done tasks) up to date, when this task changed what they show; else undefined.
   */
  staleAnswers?(task: TaskOf<K>): StaleAnswerRefresh | undefined;
}
