import { createRoot, type Root } from 'react-dom/client';
import type { AnalyticsIds } from '@shop/shared/analytics-providers';
import { ConsentRoot } from './consent-root.tsx';
import { consentNeeded } from './consent-storage.ts';

let root: Root | null = null;
let openRequests = 0;

/**
 * Shows the banner (or, `open`, the settings the footer asked for) in a React root of its own,
 * outside the page's tree: nothing of it is hydrated, and it is there for as long as the tab lives.
 * Without a reason to show or run anything (the visitor chose 「僅必要」) nothing is drawn.
 */
export function showConsent(ids: AnalyticsIds, open: boolean): void {
  if (open) openRequests += 1;
  if (!root && !open && !consentNeeded(ids)) return;
  if (!root) {
    const element = document.createElement('div');
    element.id = 'consent';
    document.body.appendChild(element);
    root = createRoot(element);
  }
  root.render(<ConsentRoot ids={ids} openRequests={openRequests} />);
}
