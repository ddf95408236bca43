/**
 * On the server (entry-server.tsx imports this first) the browser's storages are empty and forget
 * what is written: the persisted stores then start empty and write nowhere, without warning on
 * every write. In the browser this module is never loaded.
 */
class ForgetfulStorage implements Storage {
  readonly length = 0;
  clear(): void {}
  getItem(): string | null {
    return null;
  }
  key(): string | null {
    return null;
  }
  removeItem(): void {}
  setItem(): void {}
}

const scope = globalThis as { localStorage?: Storage; sessionStorage?: Storage };
scope.localStorage ??= new ForgetfulStorage();
scope.sessionStorage ??= new ForgetfulStorage();
