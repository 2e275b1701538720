/**
 * Transaction history: the route that pages through an account's transactions (and the one that lists the
 * NFTs they left it holding, `Nfts.ts`), the indexer that follows the configured chains into the database
 * for them, and the operator's spam switch. A chain family to index implements `Family` (`Source.ts`) in
 * `families/`.
 * @example
 * import * as History from './features/history/index.ts'
 * app.route('/', History.create({ db, config, prices }))
 * const indexer = History.Indexer.start({ db, config })
 */
export * as Indexer from './Indexer.ts'
export { create } from './routes.ts'
export * as Spam from './Spam.ts'
