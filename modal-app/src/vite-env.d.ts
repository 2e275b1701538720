/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** JSON `{ [projectId]: string[] }` of origin patterns, merged over the built-in projects table. */
  readonly VITE_AIRLOCK_PROJECTS?: string
}

interface ImportMeta {
  readonly env: ImportMetaEnv
}
