/** A Playwright reporter: the slowest 10 spec files and journeys of the run, retries included (`slowest.ts`). */
import { relative } from 'node:path'
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter'
import { report, type Timed } from './slowest.ts'

export default class Slowest implements Reporter {
  private readonly tests: Timed[] = []

  onTestEnd(test: TestCase, result: TestResult): void {
    const file = relative(process.cwd(), test.location.file)
    this.tests.push({ ms: result.duration, name: `${file} > ${test.titlePath().slice(3).join(' > ')}` })
  }

  onEnd(): void {
    const files = new Map<string, number>()
    for (const { ms, name } of this.tests) {
      const file = name.split(' > ')[0] ?? name
      files.set(file, (files.get(file) ?? 0) + ms)
    }
    report('e2e', { files: [...files].map(([name, ms]) => ({ ms, name })), tests: this.tests })
  }
}
