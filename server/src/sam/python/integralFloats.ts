/**
 * Numbers the template wrote as floats with an integral value (`2.0`). JavaScript reads `2.0` as
 * `2`, Python as `2.0`, and the difference shows in what SAM hashes (`str(swagger)`,
 * `json.dumps`): the reader of the template marks them, and Python's printers ask.
 */

/** Keyed by the map or list, so copies made by the transform simply lose the mark; the marks of one template cannot be seen from another. */
const integralFloats = new WeakMap<object, Set<string | number>>();

/** Whether `container[key]` was written as an integral float (`2.0`), which Python prints as such. */
export function isIntegralFloat(container: object, key: string | number): boolean {
  return integralFloats.get(container)?.has(key) === true;
}

/** Marks `container[key]` as written as an integral float. */
export function markIntegralFloat(container: object, key: string | number): void {
  let keys = integralFloats.get(container);
  if (!keys) integralFloats.set(container, (keys = new Set()));
  keys.add(key);
}
