/**
 * Block Kit limit guard: a pure validator of what the bot sends to Slack (messages,
 * views, options responses). Each problem names the Web API error Slack answers with
 * and a reason in Slack's own `response_metadata.messages` style, with a JSON pointer
 * to the offending field. The numbers are those of shared/slack/LIMITS.md (the stricter
 * value where sources disagree), so a payload that passes here passes on Slack.
 */

export type LimitError = "invalid_blocks" | "msg_blocks_too_long" | "msg_too_long" | "invalid_arguments";

export interface LimitProblem {
  error: LimitError;
  reason: string;
  /** JSON pointer into the payload, e.g. /blocks/3/elements/0/text/text */
  pointer: string;
}

export const LIMITS = {
  messageBlocks: 50,
  viewBlocks: 100,
  sectionText: 3000,
  sectionFields: 10,
  sectionFieldText: 2000,
  headerText: 150,
  contextElements: 10,
  actionsElements: 25,
  blockId: 255,
  actionId: 255,
  buttonText: 75,
  buttonValue: 2000,
  url: 3000,
  selectOptions: 100,
  selectOptionGroups: 100,
  optionGroupLabel: 75,
  overflowMinOptions: 1,
  overflowMaxOptions: 5,
  choiceOptions: 10,
  optionText: 75,
  optionDescription: 75,
  optionValue: 75,
  placeholder: 150,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  inputLabel: 2000,
  inputHint: 2000,
  plainTextInputMaxLength: 3000,
  imageAltText: 2000,
  imageTitle: 2000,
  imageUrl: 3000,
  /** Undocumented total of block text per message (bolt-js #2509, #2867): beyond it, msg_blocks_too_long. */
  messageBlocksTotalText: 12_000,
  messageText: 40_000,
  viewTitle: 24,
  viewSubmit: 24,
  viewClose: 24,
  privateMetadata: 3000,
  callbackId: 255,
  externalId: 255,
} as const;

export const BLOCK_TYPES: ReadonlySet<string> = new Set([
  "section",
  "header",
  "divider",
  "context",
  "actions",
  "image",
  "input",
  "rich_text",
  "file",
]);

/** Elements that can sit in an input block (they carry state into view_submission). */
const INPUT_ELEMENT_TYPES: ReadonlySet<string> = new Set([
  "plain_text_input",
  "static_select",
  "external_select",
  "multi_static_select",
  "multi_external_select",
  "users_select",
  "multi_users_select",
  "conversations_select",
  "multi_conversations_select",
  "channels_select",
  "multi_channels_select",
  "datepicker",
  "timepicker",
  "datetimepicker",
  "checkboxes",
  "radio_buttons",
  "email_text_input",
  "url_text_input",
  "number_input",
]);

/** Every element type the guard knows: interactive ones plus the image element. */
export const ELEMENT_TYPES: ReadonlySet<string> = new Set([
  ...INPUT_ELEMENT_TYPES,
  "button",
  "overflow",
  "image",
]);

type Surface = "message" | "modal" | "home";

/** Walks one payload, collecting problems; `error` is the code blocks problems map to. */
class Checker {
  readonly problems: LimitProblem[] = [];
  constructor(private readonly blockError: LimitError) {}

  add(pointer: string, reason: string, error: LimitError = this.blockError): void {
    this.problems.push({ error, reason, pointer });
  }

  maxLength(value: unknown, max: number, pointer: string): void {
    if (typeof value === "string" && value.length > max) {
      this.add(pointer, `must be less than ${max + 1} characters`);
    }
  }

  optionalString(value: unknown, max: number, pointer: string): void {
    if (value === undefined) return;
    if (typeof value !== "string") this.add(pointer, "must be a string");
    else this.maxLength(value, max, pointer);
  }

  /** A composition text object; `plainOnly` for header, button, option, placeholder, label texts. */
  text(value: unknown, pointer: string, max: number, plainOnly: boolean, min = 1): void {
    if (!isRecord(value)) {
      this.add(pointer, "must be a text object");
      return;
    }
    const type = value.type;
    if (type !== "plain_text" && type !== "mrkdwn") {
      this.add(`${pointer}/type`, "must be one of plain_text, mrkdwn");
      return;
    }
    if (plainOnly && type !== "plain_text") {
      this.add(`${pointer}/type`, "must be plain_text");
    }
    if (type === "mrkdwn" && value.emoji !== undefined) {
      this.add(`${pointer}/emoji`, "emoji is only allowed on plain_text");
    }
    const text = value.text;
    if (typeof text !== "string") {
      this.add(`${pointer}/text`, "must be a string");
      return;
    }
    if (text.length < min) this.add(`${pointer}/text`, `must be more than ${min - 1} characters`);
    this.maxLength(text, max, `${pointer}/text`);
  }

  optionalText(value: unknown, pointer: string, max: number, plainOnly: boolean): void {
    if (value !== undefined) this.text(value, pointer, max, plainOnly);
  }

  id(value: unknown, max: number, pointer: string, required: boolean): string | undefined {
    if (value === undefined) {
      if (required) this.add(pointer, "is required");
      return undefined;
    }
    if (typeof value !== "string" || value.length === 0) {
      this.add(pointer, "must be a non-empty string");
      return undefined;
    }
    this.maxLength(value, max, pointer);
    return value;
  }

  url(value: unknown, pointer: string, required = false): void {
    if (value === undefined) {
      if (required) this.add(pointer, "is required");
      return;
    }
    if (typeof value !== "string" || value.length === 0) this.add(pointer, "must be a non-empty string");
    else this.maxLength(value, LIMITS.url, pointer);
  }

  confirm(value: unknown, pointer: string): void {
    if (value === undefined) return;
    if (!isRecord(value)) {
      this.add(pointer, "must be a confirm object");
      return;
    }
    this.text(value.title, `${pointer}/title`, LIMITS.confirmTitle, true);
    this.text(value.text, `${pointer}/text`, LIMITS.confirmText, false);
    this.text(value.confirm, `${pointer}/confirm`, LIMITS.confirmButton, true);
    this.text(value.deny, `${pointer}/deny`, LIMITS.confirmButton, true);
    this.style(value.style, `${pointer}/style`);
  }

  style(value: unknown, pointer: string): void {
    if (value !== undefined && value !== "primary" && value !== "danger") {
      this.add(pointer, "must be one of primary, danger");
    }
  }

  option(value: unknown, pointer: string, plainOnly: boolean): void {
    if (!isRecord(value)) {
      this.add(pointer, "must be an option object");
      return;
    }
    this.text(value.text, `${pointer}/text`, LIMITS.optionText, plainOnly);
    if (typeof value.value !== "string") this.add(`${pointer}/value`, "must be a string");
    else this.maxLength(value.value, LIMITS.optionValue, `${pointer}/value`);
    this.optionalText(value.description, `${pointer}/description`, LIMITS.optionDescription, plainOnly);
    this.url(value.url, `${pointer}/url`);
  }

  options(value: unknown, pointer: string, min: number, max: number, plainOnly: boolean): void {
    if (!Array.isArray(value)) {
      this.add(pointer, "must be an array");
      return;
    }
    if (value.length < min) this.add(pointer, `must provide at least ${min} items`);
    if (value.length > max) this.add(pointer, `must be less than ${max + 1} items`);
    for (const [i, option] of value.entries()) this.option(option, `${pointer}/${i}`, plainOnly);
  }

  /** static selects carry either options or option_groups, never both. */
  selectOptions(element: Record<string, unknown>, pointer: string): void {
    const hasOptions = element.options !== undefined;
    const hasGroups = element.option_groups !== undefined;
    if (hasOptions === hasGroups) {
      this.add(pointer, "must provide exactly one of options, option_groups");
      return;
    }
    if (hasOptions) {
      this.options(element.options, `${pointer}/options`, 1, LIMITS.selectOptions, true);
      return;
    }
    const groups = element.option_groups;
    if (!Array.isArray(groups)) {
      this.add(`${pointer}/option_groups`, "must be an array");
      return;
    }
    if (groups.length > LIMITS.selectOptionGroups) {
      this.add(`${pointer}/option_groups`, `must be less than ${LIMITS.selectOptionGroups + 1} items`);
    }
    groups.forEach((group, i) => {
      const at = `${pointer}/option_groups/${i}`;
      if (!isRecord(group)) {
        this.add(at, "must be an option group object");
        return;
      }
      this.text(group.label, `${at}/label`, LIMITS.optionGroupLabel, true);
      this.options(group.options, `${at}/options`, 1, LIMITS.selectOptions, true);
    });
  }

  element(value: unknown, pointer: string, actionIds: Set<string> | undefined): void {
    if (!isRecord(value)) {
      this.add(pointer, "must be an element object");
      return;
    }
    const type = value.type;
    if (typeof type !== "string" || !ELEMENT_TYPES.has(type)) {
      this.add(`${pointer}/type`, `unknown element type ${JSON.stringify(type)}`);
      return;
    }
    if (type === "image") {
      this.image(value, pointer);
      return;
    }
    const actionId = this.id(value.action_id, LIMITS.actionId, `${pointer}/action_id`, false);
    if (actionId !== undefined && actionIds) {
      if (actionIds.has(actionId))
        this.add(`${pointer}/action_id`, `duplicate action_id ${actionId} in block`);
      actionIds.add(actionId);
    }
    this.confirm(value.confirm, `${pointer}/confirm`);
    this.optionalText(value.placeholder, `${pointer}/placeholder`, LIMITS.placeholder, true);
    switch (type) {
      case "button":
        this.text(value.text, `${pointer}/text`, LIMITS.buttonText, true);
        this.optionalString(value.value, LIMITS.buttonValue, `${pointer}/value`);
        this.url(value.url, `${pointer}/url`);
        this.style(value.style, `${pointer}/style`);
        this.optionalString(value.accessibility_label, 75, `${pointer}/accessibility_label`);
        break;
      case "static_select":
      case "multi_static_select":
        this.selectOptions(value, pointer);
        break;
      case "overflow":
        this.options(
          value.options,
          `${pointer}/options`,
          LIMITS.overflowMinOptions,
          LIMITS.overflowMaxOptions,
          true,
        );
        break;
      case "checkboxes":
      case "radio_buttons":
        this.options(value.options, `${pointer}/options`, 1, LIMITS.choiceOptions, false);
        break;
      case "plain_text_input":
        if (value.max_length !== undefined) {
          const max = value.max_length;
          if (typeof max !== "number" || max < 1 || max > LIMITS.plainTextInputMaxLength) {
            this.add(`${pointer}/max_length`, `must be between 1 and ${LIMITS.plainTextInputMaxLength}`);
          }
        }
        this.optionalString(value.initial_value, LIMITS.plainTextInputMaxLength, `${pointer}/initial_value`);
        break;
      case "datepicker":
        if (value.initial_date !== undefined && !isDate(value.initial_date)) {
          this.add(`${pointer}/initial_date`, "must be a date in YYYY-MM-DD format");
        }
        break;
      case "timepicker":
        if (value.initial_time !== undefined && !isTime(value.initial_time)) {
          this.add(`${pointer}/initial_time`, "must be a time in HH:mm format");
        }
        break;
      default:
        break;
    }
  }

  image(value: Record<string, unknown>, pointer: string): void {
    const hasUrl = value.image_url !== undefined;
    const hasFile = value.slack_file !== undefined;
    if (hasUrl === hasFile) this.add(pointer, "must provide exactly one of image_url, slack_file");
    if (hasUrl) this.url(value.image_url, `${pointer}/image_url`, true);
    if (typeof value.alt_text !== "string" || value.alt_text.length === 0) {
      this.add(`${pointer}/alt_text`, "must be a non-empty string");
    } else {
      this.maxLength(value.alt_text, LIMITS.imageAltText, `${pointer}/alt_text`);
    }
  }

  block(value: unknown, pointer: string, blockIds: Set<string>): void {
    if (!isRecord(value)) {
      this.add(pointer, "must be a block object");
      return;
    }
    const type = value.type;
    if (typeof type !== "string" || !BLOCK_TYPES.has(type)) {
      this.add(`${pointer}/type`, `unknown block type ${JSON.stringify(type)}`);
      return;
    }
    const blockId = this.id(value.block_id, LIMITS.blockId, `${pointer}/block_id`, false);
    if (blockId !== undefined) {
      if (blockIds.has(blockId)) this.add(`${pointer}/block_id`, `duplicate block_id ${blockId}`);
      blockIds.add(blockId);
    }
    const actionIds = new Set<string>();
    switch (type) {
      case "section":
        this.sectionBlock(value, pointer, actionIds);
        break;
      case "header":
        this.text(value.text, `${pointer}/text`, LIMITS.headerText, true);
        break;
      case "context":
        this.contextBlock(value, pointer);
        break;
      case "actions":
        this.actionsBlock(value, pointer, actionIds);
        break;
      case "image":
        this.image(value, pointer);
        this.optionalText(value.title, `${pointer}/title`, LIMITS.imageTitle, true);
        break;
      case "input":
        this.inputBlock(value, pointer, actionIds);
        break;
      case "rich_text":
        if (!Array.isArray(value.elements)) this.add(`${pointer}/elements`, "must be an array");
        break;
      case "file":
        if (typeof value.external_id !== "string") this.add(`${pointer}/external_id`, "must be a string");
        break;
      default:
        break;
    }
  }

  sectionBlock(value: Record<string, unknown>, pointer: string, actionIds: Set<string>): void {
    if (value.text === undefined && value.fields === undefined) {
      this.add(pointer, "must provide text or fields");
    }
    if (value.text !== undefined) this.text(value.text, `${pointer}/text`, LIMITS.sectionText, false);
    if (value.fields !== undefined) {
      const fields = value.fields;
      if (!Array.isArray(fields)) this.add(`${pointer}/fields`, "must be an array");
      else {
        if (fields.length > LIMITS.sectionFields) {
          this.add(`${pointer}/fields`, `must be less than ${LIMITS.sectionFields + 1} items`);
        }
        for (const [i, field] of fields.entries()) {
          this.text(field, `${pointer}/fields/${i}`, LIMITS.sectionFieldText, false);
        }
      }
    }
    if (value.accessory !== undefined) this.element(value.accessory, `${pointer}/accessory`, actionIds);
  }

  contextBlock(value: Record<string, unknown>, pointer: string): void {
    const elements = this.list(value.elements, `${pointer}/elements`, LIMITS.contextElements);
    elements.forEach((element, i) => {
      const at = `${pointer}/elements/${i}`;
      if (isRecord(element) && element.type === "image") this.image(element, at);
      else this.text(element, at, LIMITS.sectionText, false);
    });
  }

  actionsBlock(value: Record<string, unknown>, pointer: string, actionIds: Set<string>): void {
    const elements = this.list(value.elements, `${pointer}/elements`, LIMITS.actionsElements);
    elements.forEach((element, i) => {
      const at = `${pointer}/elements/${i}`;
      if (isRecord(element) && element.type === "image") this.add(`${at}/type`, "image is not interactive");
      else this.element(element, at, actionIds);
    });
  }

  inputBlock(value: Record<string, unknown>, pointer: string, actionIds: Set<string>): void {
    this.text(value.label, `${pointer}/label`, LIMITS.inputLabel, true);
    this.optionalText(value.hint, `${pointer}/hint`, LIMITS.inputHint, true);
    const element = value.element;
    if (!isRecord(element)) this.add(`${pointer}/element`, "is required");
    else if (typeof element.type !== "string" || !INPUT_ELEMENT_TYPES.has(element.type)) {
      this.add(`${pointer}/element/type`, `element type ${JSON.stringify(element.type)} cannot be an input`);
    } else this.element(element, `${pointer}/element`, actionIds);
  }

  list(value: unknown, pointer: string, max: number): unknown[] {
    if (!Array.isArray(value)) {
      this.add(pointer, "must be an array");
      return [];
    }
    if (value.length === 0) this.add(pointer, "must provide at least 1 items");
    if (value.length > max) this.add(pointer, `must be less than ${max + 1} items`);
    return value;
  }

  blocks(value: unknown, pointer: string, surface: Surface): void {
    if (!Array.isArray(value)) {
      this.add(pointer, "must be an array");
      return;
    }
    const max = surface === "message" ? LIMITS.messageBlocks : LIMITS.viewBlocks;
    if (value.length > max) this.add(pointer, `must be less than ${max + 1} items`);
    const blockIds = new Set<string>();
    for (const [i, block] of value.entries()) this.block(block, `${pointer}/${i}`, blockIds);
  }
}

/** Validates chat.postMessage / postEphemeral / update / response_url / ack message bodies. */
export function validateMessagePayload(payload: { text?: unknown; blocks?: unknown }): LimitProblem[] {
  const checker = new Checker("invalid_blocks");
  const { text, blocks } = payload;
  if (text !== undefined && text !== null) {
    if (typeof text !== "string") checker.add("/text", "must be a string", "invalid_arguments");
    else if (text.length > LIMITS.messageText) {
      checker.add("/text", `must be less than ${LIMITS.messageText + 1} characters`, "msg_too_long");
    }
  }
  if (blocks !== undefined && blocks !== null) {
    checker.blocks(blocks, "/blocks", "message");
    const total = totalText(blocks);
    if (total > LIMITS.messageBlocksTotalText) {
      checker.add(
        "/blocks",
        `total text of blocks is ${total} characters, more than ${LIMITS.messageBlocksTotalText}`,
        "msg_blocks_too_long",
      );
    }
  }
  return checker.problems;
}

/** Validates a view given to views.open / update / push / publish or a response_action. */
export function validateView(view: unknown): LimitProblem[] {
  const checker = new Checker("invalid_arguments");
  if (!isRecord(view)) {
    checker.add("/view", "must be a view object");
    return checker.problems;
  }
  const type = view.type;
  if (type !== "modal" && type !== "home") {
    checker.add("/view/type", "must be one of modal, home");
    return checker.problems;
  }
  checker.blocks(view.blocks, "/view/blocks", type);
  if (type === "modal") {
    checker.text(view.title, "/view/title", LIMITS.viewTitle, true);
    checker.optionalText(view.submit, "/view/submit", LIMITS.viewSubmit, true);
    checker.optionalText(view.close, "/view/close", LIMITS.viewClose, true);
    const hasInput = Array.isArray(view.blocks) && view.blocks.some((b) => isRecord(b) && b.type === "input");
    if (hasInput && view.submit === undefined) {
      checker.add("/view/submit", "submit is required when the view has an input block");
    }
  }
  checker.optionalString(view.private_metadata, LIMITS.privateMetadata, "/view/private_metadata");
  checker.optionalString(view.callback_id, LIMITS.callbackId, "/view/callback_id");
  checker.optionalString(view.external_id, LIMITS.externalId, "/view/external_id");
  return checker.problems;
}

/** Validates the ack body of a block_suggestion request (options for an external select). */
export function validateOptionsResponse(body: unknown): LimitProblem[] {
  const checker = new Checker("invalid_arguments");
  if (!isRecord(body)) {
    checker.add("", "must be an object with options or option_groups");
    return checker.problems;
  }
  if (body.options !== undefined) checker.options(body.options, "/options", 0, LIMITS.selectOptions, true);
  else if (body.option_groups !== undefined) checker.selectOptions(body, "");
  else checker.add("", "must provide options or option_groups");
  return checker.problems;
}

/** `response_action: "errors"` keys must be block_ids of input blocks of the view. */
export function validateViewErrors(view: unknown, errors: unknown): LimitProblem[] {
  const checker = new Checker("invalid_arguments");
  if (!isRecord(errors)) {
    checker.add("/errors", "must be an object keyed by input block_id");
    return checker.problems;
  }
  const inputIds = new Set<string>();
  if (isRecord(view) && Array.isArray(view.blocks)) {
    for (const block of view.blocks) {
      if (isRecord(block) && block.type === "input" && typeof block.block_id === "string") {
        inputIds.add(block.block_id);
      }
    }
  }
  for (const [key, message] of Object.entries(errors)) {
    if (!inputIds.has(key)) checker.add(`/errors/${key}`, `${key} is not the block_id of an input block`);
    if (typeof message !== "string" || message.length === 0)
      checker.add(`/errors/${key}`, "must be a string");
  }
  return checker.problems;
}

/** Slack's wording in response_metadata.messages. */
export function formatProblem(problem: LimitProblem): string {
  return `[ERROR] ${problem.reason} [json-pointer:${problem.pointer}]`;
}

/** The error code Slack answers with when several problems are found: the most specific one. */
export function primaryError(problems: readonly LimitProblem[]): LimitError {
  const order: LimitError[] = ["msg_too_long", "invalid_blocks", "invalid_arguments", "msg_blocks_too_long"];
  for (const error of order) if (problems.some((p) => p.error === error)) return error;
  return "invalid_arguments";
}

/** Sum of every text in the blocks (text objects, rich text runs, option labels). */
export function totalText(value: unknown): number {
  if (Array.isArray(value)) return value.reduce<number>((sum, item) => sum + totalText(item), 0);
  if (!isRecord(value)) return 0;
  let sum = 0;
  for (const [key, inner] of Object.entries(value)) {
    if (key === "text" && typeof inner === "string") sum += inner.length;
    else if (typeof inner === "object" && inner !== null) sum += totalText(inner);
  }
  return sum;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isDate(value: unknown): boolean {
  return typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value);
}

function isTime(value: unknown): boolean {
  return typeof value === "string" && /^([01]\d|2[0-3]):[0-5]\d$/.test(value);
}
