/** A generator of numbers in [0, 1) from a seed (a linear congruential one: the same seed, the same run). */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
    return state / 0x80000000;
  };
}
