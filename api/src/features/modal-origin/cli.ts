#!/usr/bin/env -S npx tsx
/**
 * The modal origin on its own, apart from the API:
 *
 *   airlock-modal-origin --dir modal-app/dist --api-url https://api.example [--host 127.0.0.1] [--port 5174]
 *
 * It opens no database: it asks the API at `--api-url` for each project's origins. Started by a parent
 * with an IPC channel (the dev stack), it sends `{ url }` there once it listens, and ends with the parent.
 */
import { parseArgs } from 'node:util'
import * as Child from '../../internal/child.ts'
import * as Server from './Server.ts'

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      dir: { type: 'string' },
      'api-url': { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '5174' },
    },
  })
  if (!values.dir || !values['api-url']) {
    console.error(
      'usage: airlock-modal-origin --dir <modal-app/dist> --api-url <url> [--host <ip>] [--port <n>]',
    )
    process.exit(2)
  }
  const running = await Server.listen({
    dir: values.dir,
    apiUrl: values['api-url'],
    host: values.host,
    port: Number(values.port),
  })
  const stop = async () => {
    await running.stop()
    process.exit(0)
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, stop)
  if (!Child.announce(running.url, stop))
    console.log(`Airlock modal origin on ${running.url}, asking ${values['api-url']}`)
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
