/** Bundled dApps get the bridge as a chunk of their own bundle. */
export const loadBridge = () => import('./bridge.ts')
