import { createStore } from 'jotai';

/** The app's one jotai store, so code outside React (e.g. `toast()`) can update UI state. */
export const appStore = createStore();
