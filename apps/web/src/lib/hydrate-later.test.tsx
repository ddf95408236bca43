import { useState } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HydrateLater, laterPartsHydrated, sliceFirstHydration } from './hydrate-later.tsx';

// The module's state (slicing, the parts released) lasts for the whole file: each test uses part
// names of its own, and each first hydration ends with laterPartsHydrated(), which ends the slicing.

/** Lets queued renders (microtasks) run, but no timer: a later part's turn is a task. */
async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

/** The server's page in the document, as the browser has it before the app's code runs. */
function serverPage(html: string): HTMLElement {
  const container = document.createElement('div');
  container.innerHTML = html;
  document.body.append(container);
  return container;
}

/** React marks a Suspense boundary's server HTML with comments (<!--$--> … <!--/$-->): what the tests compare leaves them out. */
const withoutMarks = (html: string) => html.replace(/<!--\/?\$-->/g, '');

function element(container: HTMLElement, selector: string): HTMLElement {
  const found = container.querySelector<HTMLElement>(selector);
  if (!found) throw new Error(`no ${selector}`);
  return found;
}

afterEach(() => {
  document.body.replaceChildren();
});

describe('HydrateLater', () => {
  it('renders its part at once on the server', () => {
    const html = renderToString(
      <div>
        <HydrateLater part="server">
          <main>
            <p>content</p>
          </main>
        </HydrateLater>
      </div>,
    );
    expect(withoutMarks(html)).toBe('<div><main><p>content</p></main></div>');
  });

  it("hydrates the rest of the page first, then the part in a later task, keeping the server's DOM throughout", async () => {
    const onA = vi.fn();
    const onB = vi.fn();
    const tree = (
      <div>
        <header>
          <button onClick={onA}>A</button>
        </header>
        <HydrateLater part="main">
          <main>
            <button onClick={onB}>B</button>
          </main>
        </HydrateLater>
      </div>
    );
    const html = renderToString(tree);
    const container = serverPage(html);
    const main = element(container, 'main');
    const a = element(container, 'header button');
    const b = element(container, 'main button');

    sliceFirstHydration();
    const root = hydrateRoot(container, tree);
    await flushMicrotasks();
    // The header is the app's already; the part is still the server's, untouched and inert.
    a.click();
    expect(onA).toHaveBeenCalledOnce();
    b.click();
    expect(onB).not.toHaveBeenCalled();
    expect(container.querySelector('main')).toBe(main);
    expect(container.innerHTML).toBe(html);

    await laterPartsHydrated();
    // Taken up in place: the same nodes, now with their handlers, and nothing added or removed.
    expect(container.querySelector('main')).toBe(main);
    expect(element(container, 'main button')).toBe(b);
    b.click();
    expect(onB).toHaveBeenCalledOnce();
    expect(container.innerHTML).toBe(html);
    root.unmount();
  });

  it('renders a part mounted after the first hydration at once', async () => {
    function Page() {
      const [more, setMore] = useState(false);
      return (
        <div>
          <button onClick={() => setMore(true)}>more</button>
          <HydrateLater part="first">
            <p>first</p>
          </HydrateLater>
          {more && (
            <HydrateLater part="added">
              <p>added</p>
            </HydrateLater>
          )}
        </div>
      );
    }
    const container = serverPage(renderToString(<Page />));
    sliceFirstHydration();
    const root = hydrateRoot(container, <Page />);
    await laterPartsHydrated();

    element(container, 'button').click();
    // No task in between: a part that suspended now would show nothing (its fallback) here.
    await flushMicrotasks();
    expect(withoutMarks(container.innerHTML)).toBe('<div><button>more</button><p>first</p><p>added</p></div>');
    root.unmount();
  });
});
