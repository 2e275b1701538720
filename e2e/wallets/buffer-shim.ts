/**
 * esbuild `inject` target: borsh (inside @solana/web3.js) uses a free global `Buffer`. The `buffer`
 * package is a dependency of @solana/web3.js itself, so it is always installed alongside it.
 */
// biome-ignore lint/style/useNodejsImportProtocol: this is the npm `buffer` polyfill for the browser bundle, not Node's builtin.
export { Buffer } from 'buffer'
