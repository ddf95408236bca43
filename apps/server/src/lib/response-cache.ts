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

/**
 * A small in-process cache of serialised responses: at most `max` entries, each kept `ttlMs`,
 * and all dropped at once by `invalidate()` (a write in this process), or some by `drop(match)`.
 * Across several instances a cached answer is at most `ttlMs` old.
 */
export function responseCache(options: { max: number; ttlMs: number; now?: () => number }) {
  const now = options.now ?? Date.now;
  const entries = new Map<string, { body: CachedBody; expires: number; generation: number }>();
  let generation = 0;
  // Bumped by `drop`: an answer loaded meanwhile may be one of those dropped, so it is not kept.
  let drops = 0;
  return {
    async get(key: string, load: () => Promise<unknown>): Promise<CachedBody> {
      const hit = entries.get(key);
      if (hit && hit.generation === generation && hit.expires > now()) {
        // Refresh recency: Map keeps insertion order, so re-inserting makes it the newest.
        entries.delete(key);
        entries.set(key, hit);
        return hit.body;
      }
      const startedAt = generation;
      const dropsAt = drops;
      const body = serialise(await load());
      // A write during the load makes this answer stale before it is stored: do not keep it.
      if (startedAt === generation && dropsAt === drops) {
        entries.delete(key);
        entries.set(key, { body, expires: now() + options.ttlMs, generation });
        while (entries.size > options.max) entries.delete(entries.keys().next().value as string);
      }
      return body;
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
  };
}

export type ResponseCache = ReturnType<typeof responseCache>;
