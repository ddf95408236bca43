import { hash } from 'node:crypto';

export interface CachedBody {
  readonly json: string;
  readonly etag: string;
}

/** JSON written by its maker (`asCachedBody`), taken as it is instead of serialised again. */
class PreSerialised implements CachedBody {
  readonly etag: string;
  constructor(
    readonly json: string,
    tagSource: string,
  ) {
    this.etag = etagOf(tagSource);
  }
}

const etagOf = (text: string) => `"${hash('sha1', text, 'base64url')}"`;

/**
 * A body its maker wrote as JSON already (from parts it keeps serialised): the cache sends it as it
 * is. Its ETag is the hash of `tagSource`, which must differ whenever the JSON does (the JSON itself
 * by default; a list of its parts' own hashes is shorter to hash).
 */
export function asCachedBody(json: string, tagSource: string = json): CachedBody {
  return new PreSerialised(json, tagSource);
}

/** A value as JSON with its strong ETag. */
export function serialise(value: unknown): CachedBody {
  if (value instanceof PreSerialised) return value;
  const json = JSON.stringify(value);
  return { json, etag: etagOf(json) };
}

/** The longest key the cache counts and keeps (a URL: the shop's own are well under 300 characters). */
const MAX_KEY_LENGTH = 1024;

/**
 * A small in-process cache of serialised responses: at most `max` entries, each kept at most
 * `ttlMs` (between 60 % and all of it, at random: answers loaded together, as after a restart, then
 * do not all expire and load again at the same moment), and all dropped at once by `invalidate()`
 * (a write in this process), or some by `drop(match)`. Across several instances a cached answer is
 * at most `ttlMs` old. Requests for a key that is being loaded wait for that load instead of
 * starting their own, unless a write came in since it started.
 *
 * A full cache takes a new answer only in place of one asked for less often lately (TinyLFU's
 * admission rule; docs/decisions/027): a stream of more distinct queries than it holds would
 * otherwise push every answer out before it is asked for again, so that nothing is ever served
 * from memory and every answer lives just long enough to burden the garbage collector.
 */
export function responseCache(options: { max: number; ttlMs: number; now?: () => number }) {
  const now = options.now ?? Date.now;
  const entries = new Map<string, { body: CachedBody; expires: number; generation: number }>();
  let generation = 0;
  // Bumped by `drop`: an answer loaded meanwhile may be one of those dropped, so it is not kept.
  let drops = 0;
  // How often each key was asked for lately (hits and misses alike), every count halved after
  // `window` requests, or sooner when it holds more than 4 × `max` keys (a stream of made-up query
  // strings), so that popularity fades and the counts stay small.
  const asked = new Map<string, number>();
  const window = options.max * 10;
  let requests = 0;
  const count = (key: string) => {
    asked.set(key, (asked.get(key) ?? 0) + 1);
    if (++requests < window && asked.size <= options.max * 4) return;
    requests = 0;
    for (const [k, n] of asked) {
      if (n <= 1) asked.delete(k);
      else asked.set(k, n >> 1);
    }
  };
  /** Makes room for `key` when full: the least recently used entry goes if it expired, or was asked for less often. */
  const admit = (key: string): boolean => {
    if (entries.size < options.max || entries.has(key)) return true;
    const [victim, entry] = entries.entries().next().value as [
      string,
      { expires: number; generation: number },
    ];
    const stale = entry.generation !== generation || entry.expires <= now();
    if (!stale && (asked.get(key) ?? 0) <= (asked.get(victim) ?? 0)) return false;
    entries.delete(victim);
    return true;
  };
  // Loads under way, by key, with the generation and drops they started in.
  const loading = new Map<string, { body: Promise<CachedBody>; generation: number; drops: number }>();
  const fetchAndKeep = async (key: string, load: () => Promise<unknown>): Promise<CachedBody> => {
    const startedAt = generation;
    const dropsAt = drops;
    const body = serialise(await load());
    // A write during the load makes this answer stale before it is stored: do not keep it.
    if (startedAt === generation && dropsAt === drops && admit(key)) {
      entries.delete(key);
      entries.set(key, { body, expires: now() + options.ttlMs * (0.6 + 0.4 * Math.random()), generation });
    }
    return body;
  };
  return {
    async get(key: string, load: () => Promise<unknown>): Promise<CachedBody> {
      // No page of ours has an address this long: answered, but neither counted nor kept.
      if (key.length > MAX_KEY_LENGTH) return serialise(await load());
      count(key);
      const hit = entries.get(key);
      if (hit && hit.generation === generation && hit.expires > now()) {
        // Refresh recency: Map keeps insertion order, so re-inserting makes it the newest.
        entries.delete(key);
        entries.set(key, hit);
        return hit.body;
      }
      const pending = loading.get(key);
      if (pending && pending.generation === generation && pending.drops === drops) return pending.body;
      const flight = { body: fetchAndKeep(key, load), generation, drops };
      loading.set(key, flight);
      try {
        return await flight.body;
      } finally {
        if (loading.get(key) === flight) loading.delete(key);
      }
    },
    invalidate(): void {
      generation += 1;
      entries.clear();
    },
    /** Drops the entries whose key matches (answers being loaded right now are not kept either). */
    drop(match: (key: string) => boolean): void {
      drops += 1;
      for (const key of [...entries.keys()]) if (match(key)) entries.delete(key);
    },
    get size(): number {
      return entries.size;
    },
    /** How many keys' counts it keeps (at most 4 × `max`, after a request). */
    get counted(): number {
      return asked.size;
    },
  };
}

export type ResponseCache = ReturnType<typeof responseCache>;
