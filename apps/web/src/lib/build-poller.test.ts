import { describe, expect, it, vi } from 'vitest';
import { startBuildPoller, type BuildPollerDeps } from './build-poller.ts';

function setup(overrides: Partial<BuildPollerDeps> = {}) {
  let remote = 'build-1';
  let unsaved = false;
  const timers: Array<() => void> = [];
  const focusHandlers: Array<() => void> = [];
  const deps: BuildPollerDeps = {
    currentBuildId: 'build-1',
    intervalMs: 60_000,
    fetchManifest: vi.fn(async () => ({ buildId: remote, builtAt: '' })),
    hasUnsavedInput: () => unsaved,
    reload: vi.fn(),
    now: () => 1_700_000_000_000,
    setInterval: (fn) => timers.push(fn),
    clearInterval: vi.fn(),
    onFocus: (fn) => {
      focusHandlers.push(fn);
      return () => void focusHandlers.splice(focusHandlers.indexOf(fn), 1);
    },
    ...overrides,
  };
  const poller = startBuildPoller(deps);
  return {
    deps,
    poller,
    deploy: (id: string) => (remote = id),
    setUnsaved: (v: boolean) => (unsaved = v),
    tick: async () => {
      timers.forEach((t) => t());
      await vi.waitFor(() => expect(deps.fetchManifest).toHaveBeenCalled());
      await Promise.resolve();
    },
    focus: () => focusHandlers.forEach((f) => f()),
  };
}

describe('build poller (docs/product-rules.md#http-behaviour)', () => {
  it('asks for the manifest with a cache-busting timestamp and does nothing while the build is current', async () => {
    const t = setup();
    await t.poller.check();
    expect(t.deps.fetchManifest).toHaveBeenCalledWith(1_700_000_000_000);
    expect(t.deps.reload).not.toHaveBeenCalled();
    expect(t.poller.updatePending).toBe(false);
  });

  it('reloads at once when a new build appears and no form holds unsaved input', async () => {
    const t = setup();
    t.deploy('build-2');
    await t.poller.check();
    expect(t.deps.reload).toHaveBeenCalledTimes(1);
  });

  it('waits for the next route change when a form holds unsaved input', async () => {
    const t = setup();
    t.setUnsaved(true);
    t.deploy('build-2');
    await t.poller.check();
    expect(t.deps.reload).not.toHaveBeenCalled();
    expect(t.poller.updatePending).toBe(true);
    expect(t.poller.onRouteChange('/mall?q=烏龍')).toBe(true);
    expect(t.deps.reload).toHaveBeenCalledWith('/mall?q=烏龍');
  });

  it('does not reload on a route change when no new build is waiting', () => {
    const t = setup();
    expect(t.poller.onRouteChange('/mall')).toBe(false);
    expect(t.deps.reload).not.toHaveBeenCalled();
  });

  it('checks on the interval and when the tab regains focus', async () => {
    const t = setup();
    await t.tick();
    t.focus();
    await vi.waitFor(() => expect(t.deps.fetchManifest).toHaveBeenCalledTimes(2));
  });

  it('ignores an unreachable manifest', async () => {
    const t = setup({ fetchManifest: vi.fn(async () => null) });
    await t.poller.check();
    expect(t.deps.reload).not.toHaveBeenCalled();
  });

  it('stops listening when stopped', () => {
    const t = setup();
    t.poller.stop();
    expect(t.deps.clearInterval).toHaveBeenCalled();
  });
});
