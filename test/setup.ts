/**
 * Property tests run with one seed, so CI is deterministic; set FC_SEED to explore others
 * (fast-check prints the seed and path of any failure).
 */
import fc from "fast-check";

fc.configureGlobal({ seed: Number(process.env.FC_SEED ?? 20261122) });
