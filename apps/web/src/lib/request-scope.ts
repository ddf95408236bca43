/**
 * What a page rendered on the server knows about the request it answers (docs/decisions/024):
 * the browser's cookies and a way to call the API in-process. In the browser there is no scope and
 * the callers use document.cookie and fetch. The server's entry (entry-server.tsx) installs the
 * source, which reads the scope of the request being rendered (AsyncLocalStorage), so concurrent
 * renders never see each other's cookies.
 */
export interface RequestScope {
  cookie: string;
  fetch(url: string, init: RequestInit): Promise<Response>;
}

let source: () => RequestScope | undefined = () => undefined;

export function setRequestScopeSource(next: () => RequestScope | undefined): void {
  source = next;
}

export function requestScope(): RequestScope | undefined {
  return source();
}
