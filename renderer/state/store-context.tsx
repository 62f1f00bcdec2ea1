import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { FolioApi } from '../../shared/app-api.js';
import type { FolioActions, FolioState, FolioStore } from './folio-store.js';

interface FolioContext {
  store: FolioStore;
  api: FolioApi;
}

const Context = createContext<FolioContext | null>(null);

export function FolioProvider({ store, api, children }: FolioContext & { children: ReactNode }) {
  return <Context.Provider value={{ store, api }}>{children}</Context.Provider>;
}

function useFolioContext(): FolioContext {
  const context = useContext(Context);
  if (!context) throw new Error('A Folio view was drawn outside FolioProvider.');
  return context;
}

/** One value from the store; the view redraws only when that value changes. */
export function useFolio<T>(selector: (state: FolioState & FolioActions) => T): T {
  return useStore(useFolioContext().store, selector);
}

/** The store's actions: made once with the store, so effects that depend on them run once. */
export function useActions(): FolioActions {
  const { store } = useFolioContext();
  return useMemo(() => store.getState(), [store]);
}

export function useApi(): FolioApi {
  return useFolioContext().api;
}
