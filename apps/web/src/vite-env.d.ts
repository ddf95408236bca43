/// <reference types="vite/client" />
declare const __BUILD_ID__: string;

interface ImportMetaEnv {
  /** The client data cache's bound in bytes (default 41943040, at least 1048576): lib/query-client.ts. */
  readonly VITE_QUERY_CACHE_BYTES?: string;
}
