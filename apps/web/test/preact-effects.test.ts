import { render } from '@testing-library/react';
import { createElement, useEffect, useState } from 'react';
import { expect, it, vi } from 'vitest';

// test/setup.ts has Preact run effects after a plain timer, never a frame (a frame's fallback timer
// outlives jsdom when a file ends). This checks that the setting reaches the Preact the app runs
// on: were the aliases to load a second copy, the setting would silently stop applying.
it('effects after an update outside act() run on a timer, with no animation frame asked for', async () => {
  const frame = vi.spyOn(window, 'requestAnimationFrame');
  let setCount: (n: number) => void = () => {};
  let effects = 0;
  function Counter() {
    const [count, set] = useState(0);
    setCount = set;
    useEffect(() => {
      effects += 1;
    }, [count]);
    return createElement('p', null, String(count));
  }
  render(createElement(Counter));
  setCount(1);
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(effects).toBe(2);
  expect(frame).not.toHaveBeenCalled();
});
