/**
 * Animation and timing constants (docs/product-rules.md#limits-and-timings), in one place. Components read them from here,
 * never as literals, so the whole site moves alike.
 */
export const MOTION = {
  /** Scroll-to animation: offset for the sticky header, duration, easing. */
  scroll: { offset: 120, durationMs: 400, easing: 'ease' },
  /** Slide up/down panels (FAQ answers and the like). */
  slide: { durationMs: 500, easing: 'ease-in-out' },
  /** Announcement marquee: 20 s per loop, no delay, loops forever (0 = infinite). */
  marquee: { durationS: 20, delayS: 0, loop: 0 },
  /** Auto-width inputs (quantity steppers) resize after typing pauses this long. */
  autoWidthDebounceMs: 150,
  /**
   * Transition waits: how long a step that follows a visible change waits for it to settle. The
   * FAQ's scroll to a linked question waits `short` after opening it, `none` under reduced motion.
   */
  transitionWaitMs: { short: 100, none: 0 },
} as const;

/** A failed page chunk reloads at most once per this many ms for the same path. */
export const RELOAD_GUARD_MS = 10_000;

/** How often the client asks whether a newer build is deployed (docs/product-rules.md#http-behaviour). */
export const BUILD_POLL_INTERVAL_MS = 60_000;

export function prefersReducedMotion(): boolean {
  return (
    typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true
  );
}
