export * from "./failures.js";
export * from "./form.js";
export * from "./plates.js";
export * from "./state.js";
export * from "./types.js";
export * from "./vat.js";
