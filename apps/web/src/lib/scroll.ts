import { MOTION, prefersReducedMotion } from '../config/motion.ts';

/** CSS `ease`, i.e. cubic-bezier(0.25, 0.1, 0.25, 1), solved for y at time x. */
export function ease(x: number): number {
  const p1x = 0.25,
    p1y = 0.1,
    p2x = 0.25,
    p2y = 1;
  const bez = (t: number, a: number, b: number) =>
    3 * (1 - t) * (1 - t) * t * a + 3 * (1 - t) * t * t * b + t * t * t;
  let lo = 0,
    hi = 1,
    t = x;
  for (let i = 0; i < 20; i++) {
    t = (lo + hi) / 2;
    if (bez(t, p1x, p2x) < x) lo = t;
    else hi = t;
  }
  return bez(t, p1y, p2y);
}

/**
 * Scrolls so the element sits `offset` px below the top (clear of the sticky header), animated
 * with the defaults of `MOTION` (docs/product-rules.md#limits-and-timings): offset 120, 400 ms, ease. Jumps when reduced motion is asked for.
 */
export function scrollToElement(
  el: Element,
  opts: { offset?: number; durationMs?: number } = {},
): Promise<void> {
  const offset = opts.offset ?? MOTION.scroll.offset;
  const duration = opts.durationMs ?? MOTION.scroll.durationMs;
  const start = window.scrollY;
  const target = Math.max(0, start + el.getBoundingClientRect().top - offset);
  if (prefersReducedMotion() || duration <= 0) {
    window.scrollTo(0, target);
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const began = performance.now();
    const step = (now: number) => {
      const x = Math.min(1, (now - began) / duration);
      window.scrollTo(0, start + (target - start) * ease(x));
      if (x < 1) requestAnimationFrame(step);
      else resolve();
    };
    requestAnimationFrame(step);
  });
}
