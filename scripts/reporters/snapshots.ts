/**
 * A Playwright reporter: for a journey that failed, even once before passing on its retry, what the page
 * showed (the accessibility snapshot of its error context, frames included), printed with the run's output,
 * and at the end the journeys that needed a retry. CI keeps only that output, and a failure that happens
 * once on a loaded machine is otherwise gone before anyone can look at it.
 */
import { readFileSync } from 'node:fs'
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter'

const limit = 120

export default class FailureSnapshots implements Reporter {
  private readonly flaky = new Set<string>()

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status === test.expectedStatus) {
      if (result.retry > 0) this.flaky.add(test.titlePath().slice(2).join(' > '))
      return
    }
    const context = result.attachments.find((a) => a.name === 'error-context' && a.path)
    if (!context?.path) return
    // The snapshot is the context's YAML block, under the error or as the page's snapshot.
    const yaml = /```yaml\n([\s\S]*?)```/.exec(readFileSync(context.path, 'utf8'))?.[1]
    if (!yaml) return
    const lines = yaml.trimEnd().split('\n')
    const shown = lines.slice(0, limit)
    if (lines.length > limit) shown.push(`… ${lines.length - limit} more lines in ${context.path}`)
    console.log(
      `\nWhat the page showed when "${test.title}" failed (try ${result.retry + 1}):\n${shown.join('\n')}`,
    )
  }

  onEnd(): void {
    if (this.flaky.size === 0) return
    console.log(
      `\nPassed only on a retry (flaky, to mend):\n${[...this.flaky].map((name) => `  ${name}`).join('\n')}`,
    )
  }

  printsToStdio(): boolean {
    return false
  }
}
