/**
 * Ends the current task and resumes in a new one, so the browser can paint and answer input in
 * between: a page's start-up in several tasks of tens of milliseconds instead of one long one
 * (docs/decisions/026). `scheduler.yield()` where the browser has it (the continuation goes ahead of
 * other queued work), a zero timeout elsewhere.
 */
export function yieldToPage(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
