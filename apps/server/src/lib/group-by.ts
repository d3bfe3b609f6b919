/**
 * `Map.groupBy` (ES2024, beyond the compiler's target library): the items by key, each group in the items'
 * order. Appends in place: copying a group for each item grows with its square.
 */
export function groupBy<T, K>(items: Iterable<T>, keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) addTo(groups, keyOf(item), item);
  return groups;
}

/** Appends `item` to the group of `key` in `groups`, in place (a group made at its first item). */
export function addTo<K, T>(groups: Map<K, T[]>, key: K, item: T): void {
  const group = groups.get(key);
  if (group) group.push(item);
  else groups.set(key, [item]);
}
