import { useEffect } from 'react';
import { act } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HydrationBoundary, whenPartsHydrated } from './hydration.tsx';

/** The server's page in the document, as the browser has it before the app's code runs. */
function serverPage(html: string): HTMLElement {
  const container = document.createElement('div');
  container.innerHTML = html;
  document.body.append(container);
  return container;
}

function element(container: HTMLElement, selector: string): HTMLElement {
  const found = container.querySelector<HTMLElement>(selector);
  if (!found) throw new Error(`no ${selector}`);
  return found;
}

/** True once whenPartsHydrated() has resolved (checked after the microtasks settle). */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 10; i++) await Promise.resolve();
  return done;
}

afterEach(() => {
  document.body.replaceChildren();
});

describe('HydrationBoundary', () => {
  it('renders its part at once on the server, marked as a boundary React hydrates on its own', () => {
    const html = renderToString(
      <div>
        <HydrationBoundary>
          <main>
            <p>content</p>
          </main>
        </HydrationBoundary>
      </div>,
    );
    expect(html).toBe('<div><!--$--><main><p>content</p></main><!--/$--></div>');
  });

  it("is hydrated after the rest of the page, in a commit of its own, keeping the server's DOM", async () => {
    const order: string[] = [];
    const onA = vi.fn();
    const onB = vi.fn();
    function Page() {
      useEffect(() => void order.push('page'), []);
      return (
        <div>
          <header>
            <button onClick={onA}>A</button>
          </header>
          <HydrationBoundary>
            <main>
              <Part onB={onB} />
            </main>
          </HydrationBoundary>
        </div>
      );
    }
    function Part({ onB: click }: { onB: () => void }) {
      useEffect(() => void order.push('part'), []);
      return <button onClick={click}>B</button>;
    }
    const html = renderToString(<Page />);
    const container = serverPage(html);
    const serverMain = element(container, 'main');
    const serverB = element(container, 'main button');
    const recoverable = vi.fn();

    await act(async () => {
      hydrateRoot(container, <Page />, { onRecoverableError: recoverable });
    });

    // In one commit a child's effect runs before its parent's: the part's ran after the page's,
    // so React committed the page first and the part later.
    expect(order).toEqual(['page', 'part']);
    expect(await settled(whenPartsHydrated())).toBe(true);
    // The server's elements were taken over, not drawn again.
    expect(element(container, 'main')).toBe(serverMain);
    expect(element(container, 'main button')).toBe(serverB);
    expect(container.innerHTML).toBe(html);
    element(container, 'header button').click();
    element(container, 'main button').click();
    expect(onA).toHaveBeenCalledOnce();
    expect(onB).toHaveBeenCalledOnce();
    expect(recoverable).not.toHaveBeenCalled();
  });

  it('waits for a part that has not been hydrated yet', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let onServer = true;
    let released = false;
    function Slow() {
      // Suspends in the browser until released: the part stays dehydrated meanwhile.
      if (!onServer && !released) throw gate.then(() => void (released = true));
      return <p>slow</p>;
    }
    const tree = (
      <div>
        <HydrationBoundary>
          <Slow />
        </HydrationBoundary>
      </div>
    );
    const container = serverPage(renderToString(tree));
    onServer = false;
    await act(async () => {
      hydrateRoot(container, tree);
    });
    const hydrated = whenPartsHydrated();
    expect(await settled(hydrated)).toBe(false);
    expect(element(container, 'p').textContent).toBe('slow');
    await act(async () => {
      release();
      await gate;
    });
    expect(await settled(hydrated)).toBe(true);
  });
});
