/** Runs a command-line entry in the foreground: stops cleanly on Ctrl-C or SIGTERM, exits 1 on failure. */

/**
 * @example
 * Foreground.run(async () => { const devnet = await Devnet.start(); return devnet.stop })
 */
export function run(main: () => Promise<() => Promise<void>>): void {
  main().then(
    (stop) => {
      let stopping = false
      const shutdown = async () => {
        if (stopping) return
        stopping = true
        await stop()
        process.exit(0)
      }
      process.on('SIGINT', shutdown)
      process.on('SIGTERM', shutdown)
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error)
      process.exit(1)
    },
  )
}
