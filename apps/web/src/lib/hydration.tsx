import { Suspense, useEffect, useLayoutEffect, useState, type ReactNode } from 'react';

/**
 * A part of a server-rendered page that React hydrates on its own (docs/decisions/029): a Suspense
 * boundary, which React's server renderer marks in the HTML (<!--$--> … <!--/$-->). Hydrating, React
 * takes up the rest of the page first and leaves such a part as the server drew it, to hydrate it
 * afterwards at a lower priority in short slices of its own; a part the visitor clicks or types in
 * meanwhile is hydrated first and the event replayed. After the first hydration, and on the server,
 * a part renders at once like any Suspense boundary whose children do not suspend.
 */
export function HydrationBoundary({ children }: { children: ReactNode }) {
  const [part] = useState<Part>(() => ({}));
  // Counted from the commit of what surrounds it, which comes first.
  useLayoutEffect(() => {
    if (!hydrated.has(part)) pending.add(part);
    return () => {
      pending.delete(part);
      changed();
    };
  }, [part]);
  return (
    <Suspense fallback={null}>
      {children}
      <Hydrated part={part} />
    </Suspense>
  );
}

/** Resolves once every part on the page has been hydrated (at once when none is waiting). */
export function whenPartsHydrated(): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (pending.size > 0) return;
      listeners.delete(check);
      resolve();
    };
    listeners.add(check);
    check();
  });
}

/** A boundary on the page, known by identity. */
type Part = object;

/** Parts mounted and not hydrated yet; parts hydrated. */
const pending = new Set<Part>();
const hydrated = new WeakSet<Part>();
const listeners = new Set<() => void>();

function changed(): void {
  for (const listener of [...listeners]) listener();
}

/** Inside the boundary: its effect runs when the part's own commit (its hydration) does. */
function Hydrated({ part }: { part: Part }) {
  useEffect(() => {
    hydrated.add(part);
    pending.delete(part);
    changed();
  }, [part]);
  return null;
}
