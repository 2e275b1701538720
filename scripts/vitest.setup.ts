/**
 * Every test file's setup (vitest.config.ts): `vi.waitFor` waits up to 30 s unless a test says otherwise.
 * Its own default, one second, is a wait a machine busy with other work overruns for one local round trip;
 * a wait only has to catch what never comes (`expect.poll` gets the same from the config).
 */
import { vi } from 'vitest'

const waitFor = vi.waitFor
vi.waitFor = ((callback, options) =>
  waitFor(callback, {
    timeout: 30_000,
    ...(typeof options === 'number' ? { timeout: options } : options),
  })) as typeof vi.waitFor
