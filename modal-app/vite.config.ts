import { existsSync, readdirSync, readFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { fileURLToPath } from 'node:url'
import { defineConfig, type Plugin } from 'vite'

const hostDist = fileURLToPath(new URL('../host-sdk/dist/', import.meta.url))
// `airlock.js`, and the scripts it loads from beside itself (`airlock-bridge.js`).
const scriptName = /^airlock(-[a-z0-9]+)?\.js$/

/**
 * Serves the host SDK's one-script bundle (`/airlock.js` and its sibling scripts) from the modal origin in
 * dev and preview, and ships it in `dist/` at build, so a dApp loads SDK and modal from one place.
 */
function hostSdk(): Plugin {
  const serve = (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const name = (req.url ?? '/').split('?')[0]?.slice(1) ?? ''
    if (!scriptName.test(name)) return next()
    const file = hostDist + name
    if (!existsSync(file)) {
      res.statusCode = 404
      res.end(`Not built: ${file}. Run \`npm run -w @airlock/host-sdk build\`.`)
      return
    }
    res.setHeader('Content-Type', 'text/javascript; charset=utf-8')
    res.setHeader('Cache-Control', 'no-cache')
    // A dApp on another origin may load it as a module script, which needs CORS.
    res.setHeader('Access-Control-Allow-Origin', '*')
    res.end(readFileSync(file))
  }
  return {
    name: 'airlock-host-sdk',
    configureServer(server) {
      server.middlewares.use(serve)
    },
    configurePreviewServer(server) {
      server.middlewares.use(serve)
    },
    generateBundle() {
      if (!existsSync(`${hostDist}airlock.js`))
        this.error(
          `The host SDK bundle ${hostDist}airlock.js is missing: build @airlock/host-sdk before the modal app.`,
        )
      for (const name of readdirSync(hostDist).filter((file) => scriptName.test(file)))
        this.emitFile({ type: 'asset', fileName: name, source: readFileSync(hostDist + name) })
    },
  }
}

/**
 * What every page of the modal origin may run: its own files, nothing inline, no plugins, no `<base>`. The
 * modal-origin service sends it as a header (`api/src/features/modal-origin/ModalOrigin.ts`, with
 * `frame-ancestors`, which only a header can carry); the build writes it into each page as well, first in
 * `<head>`, so that a plain static host or CDN that sends no headers serves the pages under it too.
 */
const scriptPolicy = "script-src 'self'; object-src 'none'; base-uri 'none'"

/** An inline script: the policy would refuse to run it, so the build refuses to ship it. */
const inlineScript = /<script\b(?![^>]*\bsrc=)[^>]*>/i

function strictScripts(): Plugin {
  return {
    name: 'airlock-script-policy',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { filename }) {
        const inline = inlineScript.exec(html)
        if (inline)
          throw new Error(
            `${filename} has an inline script (${inline[0]}), which the modal origin's policy (${scriptPolicy}) would not run: load it from a file instead.`,
          )
        return [
          {
            tag: 'meta',
            attrs: { 'http-equiv': 'Content-Security-Policy', content: scriptPolicy },
            injectTo: 'head-prepend',
          },
        ]
      },
    },
  }
}

export default defineConfig({
  plugins: [hostSdk(), strictScripts()],
  server: { host: '127.0.0.1', port: 5174, strictPort: true },
  preview: { host: '127.0.0.1', port: 5174, strictPort: true },
  build: {
    target: 'es2022',
    // Every supported browser preloads modules natively; the polyfill would sit in the first chunk.
    modulePreload: { polyfill: false },
    // `.vite/manifest.json`: which chunks each feature loads, for `npm run bench`'s per-feature sizes.
    manifest: true,
    // The approval window is a page of its own, so the modal's first chunk carries none of it.
    rollupOptions: { input: { index: 'index.html', approve: 'approve.html', social: 'social.html' } },
  },
})
