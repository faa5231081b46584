/**
 * English, the command grammar: what a command that does not parse is told (the grammar returns
 * a code and its data; these are its words), and a period's label.
 */
import type { Section } from "../section.js";

export const grammar = {} satisfies Section;
