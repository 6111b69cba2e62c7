/**
 * Bounds on the work one parse may do, whatever the input.
 */

/**
 * How deeply collections may nest. yaml's composer recurses once per level and overflows
 * the default stack near 700 nested flow collections; an overflow that lands inside a
 * regular-expression compile aborts the whole process instead of throwing, so the input
 * is cut well before that. Real templates stay under 40 levels.
 */
export const MAX_NESTING_DEPTH = 256;

/** How many nodes alias expansion may create in one document (the billion-laughs guard). */
export const MAX_ALIAS_EXPANSION_NODES = 100_000;
