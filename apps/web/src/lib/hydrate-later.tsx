import { Suspense, type ReactElement } from 'react';
import { yieldToPage } from './yield-to-page.ts';

/**
 * A server-rendered page becomes the app in slices (docs/decisions/026): the first hydration
 * leaves each `HydrateLater` part as the server drew it and takes it up in a task of its own, so
 * no single task holds the page for the whole tree. React keeps a suspended part's server DOM
 * while it waits (written for Preact, which kept the one element the part would claim: the child
 * is exactly one element). After the first hydration, and on the server, the parts render at once.
 */
let slicing = false;
const released = new Set<string>();
const waiting: Promise<void>[] = [];

/** For boot.tsx, just before hydrating a page the server rendered. */
export function sliceFirstHydration(): void {
  slicing = true;
}

/** Resolves once every part the first hydration left for later has been taken up (at once when none). */
export async function laterPartsHydrated(): Promise<void> {
  while (waiting.length > 0) await Promise.all(waiting.splice(0));
  // Their renders run just after their turn comes: let them finish.
  await yieldToPage();
  slicing = false;
}

function Gate({ part, children }: { part: string; children: ReactElement }): ReactElement {
  if (slicing && !released.has(part)) {
    const turn = yieldToPage().then(() => void released.add(part));
    waiting.push(turn);
    // Suspends this part's hydration until its turn (its server DOM is kept meanwhile).
    throw turn;
  }
  return children;
}

/** `children` (one element) hydrated in a task after the rest of the page, on the first hydration only. */
export function HydrateLater({ part, children }: { part: string; children: ReactElement }) {
  return (
    <Suspense fallback={null}>
      <Gate part={part}>{children}</Gate>
    </Suspense>
  );
}
