import type { DehydratedState } from '@tanstack/react-query';
import { SERVER_STATE_ELEMENT_ID, type ServerState as StateOf } from '@shop/shared/server-rendering';

export { SERVER_STATE_ELEMENT_ID };

/** A rendered page's state as the browser reads it (packages/shared/src/server-rendering.ts). */
export type ServerState = StateOf<DehydratedState>;

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
