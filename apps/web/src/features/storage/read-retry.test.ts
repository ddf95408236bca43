import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { installStorageReadRetry } from './read-retry.ts';

let clock = 0;
let timers: Array<{ at: number; fn: () => void }> = [];
let statuses: Array<number | null> = [];
let probes = 0;

beforeAll(() => {
  installStorageReadRetry(document, {
    now: () => clock,
    later: (fn, ms) => void timers.push({ at: clock + ms, fn }),
    probe: async () => {
      probes += 1;
      return statuses.length > 0 ? statuses.shift()! : 503;
    },
  });
});
beforeEach(() => {
  clock = 0;
  timers = [];
  statuses = [];
  probes = 0;
  document.body.innerHTML = '';
});

/** Runs the next waiting timer, moving the clock to it; returns the wait, or null when none is left. */
async function next(): Promise<number | null> {
  const timer = timers.shift();
  if (!timer) return null;
  const waited = timer.at - clock;
  clock = timer.at;
  timer.fn();
  await new Promise((r) => setTimeout(r, 0));
  return waited;
}

function picture(src: string): HTMLImageElement {
  const img = document.createElement('img');
  img.setAttribute('src', src);
  document.body.append(img);
  return img;
}
const fail = (img: HTMLImageElement) => img.dispatchEvent(new Event('error'));

describe('storage reads are retried', () => {
  it('asks again with the 1 s × 1.5 backoff while the storage is away, for at most 2 minutes', async () => {
    fail(picture('/api/storage/b/products/o/tea.png?alt=media'));
    const waits: number[] = [];
    for (let w = await next(); w !== null; w = await next()) waits.push(w);
    expect(waits.slice(0, 4)).toEqual([1000, 1500, 2250, 3375]);
    expect(waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(120_000);
    expect(waits.reduce((a, b) => a + b, 0)).toBeGreaterThan(60_000);
    expect(probes).toBe(waits.length);
  });

  it('loads the picture again once the storage answers', async () => {
    const img = picture('/api/storage/b/products/o/tea.png?alt=media');
    let reloaded = 0;
    const set = img.setAttribute.bind(img);
    img.setAttribute = (name: string, value: string) => {
      if (name === 'src') reloaded += 1;
      set(name, value);
    };
    statuses = [503, 200];
    fail(img);
    await next();
    expect(reloaded).toBe(0);
    await next();
    expect(reloaded).toBe(1);
    expect(img.getAttribute('src')).toBe('/api/storage/b/products/o/tea.png?alt=media');
  });

  it('stops at once for a file that is not there, and never touches pictures from elsewhere', async () => {
    statuses = [404];
    fail(picture('/api/storage/b/products/o/gone.png?alt=media'));
    await next();
    expect(await next()).toBeNull();
    fail(picture('https://elsewhere.example/api/storage/b/x/o/y.png'));
    fail(picture('/assets/logo.svg'));
    expect(timers).toEqual([]);
  });
});
