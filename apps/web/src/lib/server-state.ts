import type { DehydratedState } from '@tanstack/react-query';
import type { CurrentUser } from '@shop/shared/auth';

/** The element that carries a server-rendered page's state (entry-server.tsx writes it, main.tsx reads it). */
export const SERVER_STATE_ELEMENT_ID = 'ssr-state';

export interface ServerState {
  /** Who the server rendered the page for (null: nobody signed in). */
  user: CurrentUser | null;
  /** The answers the page was rendered with. */
  queries: DehydratedState;
  /** The router's loader answers by route id. */
  router: { loaderData: Record<string, unknown> };
}

/** The state of a page the server rendered, or null when the page arrived as an empty shell. */
export function readServerState(doc: Document = document): ServerState | null {
  const element = doc.getElementById(SERVER_STATE_ELEMENT_ID);
  if (!element?.textContent) return null;
  try {
    return JSON.parse(element.textContent) as ServerState;
  } catch {
    return null;
  }
}
