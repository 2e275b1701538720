import { Wallet } from './Wallet.tsx'

export const dynamic = 'force-dynamic'

/** A server component: rendered for each request (dynamic), so this text is in the HTML the server sends before any script runs. */
export default function Page() {
  return (
    <main>
      <h1>Airlock with Next.js</h1>
      <p>Rendered on the server by the app router; the wallet button hydrates on the client.</p>
      <section aria-label="Wallet">
        <Wallet />
      </section>
    </main>
  )
}
