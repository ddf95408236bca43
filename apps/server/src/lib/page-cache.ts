/**
 * Rendered pages kept in memory, each with the tags of the data it shows (a product's id, `catalog`,
 * `content`): a change drops exactly the pages that show it (`drop(tag)`), a page lives at most its
 * `ttlMs`, and the whole cache holds at most `maxBytes` (the least recently used go first).
 * Requests for a page being rendered wait for that render instead of starting their own; a render
 * that a drop overtook is answered but not kept (it may show what just changed).
 */
export interface PageCache<T> {
  /** The page kept under `key`, or `load`'s (a key always holds the same kind of value). */
  get<V extends T>(key: string, load: () => Promise<Loaded<V>>): Promise<V>;
  /** Drops every page tagged `tag`. */
  drop(tag: string): void;
  /** Drops every page with a tag that `which` picks (asked once per tag kept). */
  dropWhere(which: (tag: string) => boolean): void;
  readonly size: number;
  readonly bytes: number;
}

/** What a render gives the cache: the value, what it shows (tags), how long to keep it (0: not at all) and its size. */
export interface Loaded<T> {
  value: T;
  tags: readonly string[];
  ttlMs: number;
  bytes: number;
}

interface Entry<T> {
  value: T;
  tags: readonly string[];
  expires: number;
  bytes: number;
}

export function pageCache<T>(options: { maxBytes: number; now?: () => number }): PageCache<T> {
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry<T>>();
  const tagged = new Map<string, Set<string>>();
  const loading = new Map<string, Promise<T>>();
  let bytes = 0;
  // Every drop is numbered, and each tag remembers its last: a render that started before a drop
  // of one of its tags is not kept. (One entry per tag ever dropped: the catalogue's size at most.)
  let drops = 0;
  const lastDrop = new Map<string, number>();
  // Drops by a test of the tag, numbered the same, kept while a render that started before may end.
  let dropsWhere: { n: number; which: (tag: string) => boolean }[] = [];
  const overtaken = (tags: readonly string[], started: number) =>
    tags.some((tag) => (lastDrop.get(tag) ?? -1) >= started) ||
    dropsWhere.some((d) => d.n >= started && tags.some(d.which));

  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
    for (const tag of entry.tags) {
      const keys = tagged.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) tagged.delete(tag);
    }
  };

  const keep = (key: string, loaded: Loaded<T>) => {
    if (loaded.ttlMs <= 0 || loaded.bytes > options.maxBytes) return;
    remove(key);
    entries.set(key, {
      value: loaded.value,
      tags: loaded.tags,
      expires: now() + loaded.ttlMs,
      bytes: loaded.bytes,
    });
    bytes += loaded.bytes;
    for (const tag of loaded.tags) {
      let keys = tagged.get(tag);
      if (!keys) tagged.set(tag, (keys = new Set()));
      keys.add(key);
    }
    // The least recently used first: Map keeps insertion order, and a hit moves its entry last.
    while (bytes > options.maxBytes) remove(entries.keys().next().value as string);
  };

  return {
    get<V extends T>(key: string, load: () => Promise<Loaded<V>>): Promise<V> {
      const hit = entries.get(key);
      if (hit && hit.expires > now()) {
        entries.delete(key);
        entries.set(key, hit);
        return Promise.resolve(hit.value as V);
      }
      const pending = loading.get(key);
      if (pending) return pending as Promise<V>;
      const started = drops;
      const promise = load()
        .then((loaded) => {
          if (!overtaken(loaded.tags, started)) keep(key, loaded);
          return loaded.value;
        })
        .finally(() => {
          loading.delete(key);
          if (loading.size === 0) dropsWhere = [];
        });
      loading.set(key, promise);
      return promise;
    },
    drop(tag) {
      lastDrop.set(tag, drops++);
      for (const key of [...(tagged.get(tag) ?? [])]) remove(key);
    },
    dropWhere(which) {
      if (loading.size > 0) dropsWhere.push({ n: drops++, which });
      for (const tag of [...tagged.keys()]) if (which(tag)) this.drop(tag);
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return bytes;
    },
  };
}
