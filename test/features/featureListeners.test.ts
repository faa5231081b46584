import { describe, expect, it } from "vitest";
import { mergedListeners } from "../../src/features/featureListeners.js";
import { BUTTONS, COMMANDS, EVENTS, SELECT_OPTIONS, VIEW_SUBMISSIONS } from "../../src/features/listeners.js";

describe("each feature registers its own listeners", () => {
  const noop = async () => {};

  it("merges the features' tables into one, and refuses an id two features claim", () => {
    expect(Object.keys(mergedListeners([{ a: noop }, undefined, { b: noop }])).sort()).toEqual(["a", "b"]);
    expect(() => mergedListeners([{ "/fleet": noop }, { "/fleet": noop }])).toThrow(
      'two features register the listener "/fleet"',
    );
  });

  it("the app's tables hold every feature's listeners", () => {
    expect(Object.keys(COMMANDS).sort()).toEqual(["/etransport", "/fleet"]);
    expect(Object.keys(EVENTS)).toEqual(["app_home_opened"]);
    expect(Object.keys(BUTTONS)).toHaveLength(22);
    expect(Object.keys(VIEW_SUBMISSIONS)).toHaveLength(4);
    expect(Object.keys(SELECT_OPTIONS)).toHaveLength(2);
  });
});
