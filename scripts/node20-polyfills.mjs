// Node 20 lacks Map.groupBy / Object.groupBy (Node 21+); vitest 5's reporter calls them when it
// prints failures. Loaded with `node --import` by the test scripts only. See docs/decisions/002.
if (typeof Map.groupBy !== 'function') {
  Object.defineProperty(Map, 'groupBy', {
    configurable: true,
    writable: true,
    value(items, keyFn) {
      const map = new Map();
      let i = 0;
      for (const item of items) {
        const key = keyFn(item, i++);
        const group = map.get(key);
        if (group) group.push(item);
        else map.set(key, [item]);
      }
      return map;
    },
  });
}
if (typeof Object.groupBy !== 'function') {
  Object.defineProperty(Object, 'groupBy', {
    configurable: true,
    writable: true,
    value(items, keyFn) {
      const out = Object.create(null);
      let i = 0;
      for (const item of items) {
        const key = keyFn(item, i++);
        (out[key] ??= []).push(item);
      }
      return out;
    },
  });
}
