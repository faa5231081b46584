export * from "./format.js";
export * from "./fuel.js";
export * from "./positions.js";
export * from "./refills.js";
export * from "./route.js";
export * from "./stops.js";
export * from "./temperatures.js";
export * from "./types.js";
