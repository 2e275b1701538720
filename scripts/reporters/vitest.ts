/** A vitest reporter: the slowest 10 test files (tests, hooks and import) and tests of the run (`slowest.ts`). */
import { relative } from 'node:path'
import type { Reporter, TestModule } from 'vitest/node'
import { report } from './slowest.ts'

export default class Slowest implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const name = (module: TestModule) => relative(process.cwd(), module.moduleId)
    report('unit', {
      files: modules.map((module) => {
        const { duration, collectDuration, setupDuration } = module.diagnostic()
        return { ms: duration + collectDuration + setupDuration, name: name(module) }
      }),
      tests: modules.flatMap((module) =>
        [...module.children.allTests()].map((test) => ({
          ms: test.diagnostic()?.duration ?? 0,
          name: `${name(module)} > ${test.fullName}`,
        })),
      ),
    })
  }
}
