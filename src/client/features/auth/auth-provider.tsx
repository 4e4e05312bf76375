import { createContext, type ReactNode, useContext, useSyncExternalStore } from 'react';
import type { AuthState, AuthStore } from './auth-store';

const AuthContext = createContext<AuthStore | null>(null);

export function AuthProvider({ store, children }: { store: AuthStore; children: ReactNode }) {
  return <AuthContext.Provider value={store}>{children}</AuthContext.Provider>;
}

/** The auth status, the user and the actions. Throws when used outside an AuthProvider. */
export function useAuth(): AuthState & { actions: AuthStore } {
  const store = useContext(AuthContext);
  if (!store) throw new Error('useAuth must be used within an AuthProvider');
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getState);
  return { ...state, actions: store };
}
