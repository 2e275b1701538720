/**
 * `airlock-api sponsorship spend <project> [--chain <caip2>] [--day YYYY-MM-DD]`: what a project's
 * sponsorship has cost on each chain, from the database the servers count it in
 * (`features/paymaster/Ledger.ts`), beside its budgets from the configuration: on the day (today, UTC, unless
 * `--day` names another) and in all, what signed operations not yet seen on chain hold, and the day's senders.
 */
import { formatUnits } from 'viem'
import * as ConfigFile from '../ConfigFile.ts'
import * as Ledger from '../features/paymaster/Ledger.ts'
import * as Sponsorship from '../features/paymaster/Sponsorship.ts'
import { type Args, UsageError, withDatabase } from './Args.ts'

export const usage = 'sponsorship spend <project> [--chain <caip2>] [--day YYYY-MM-DD]'

export function run(args: Args): Promise<number> {
  const [, action, projectId] = args.words
  if (action !== 'spend') throw new UsageError(`sponsorship ${action ?? ''}: not an action`)
  if (!projectId) throw new UsageError('sponsorship spend: which project?')
  const at = args.day === undefined ? Date.now() : Date.parse(`${args.day}T00:00:00Z`)
  if (!/^\d{4}-\d{2}-\d{2}$/.test(args.day ?? '0000-00-00') || Number.isNaN(at))
    throw new UsageError(`--day ${args.day}: expected a UTC day, YYYY-MM-DD`)
  const { config } = ConfigFile.load({ path: args.config, env: args.env })
  const policy = Sponsorship.policyOf(config.sponsorship, projectId)
  return withDatabase(args, async (db) => {
    const spends = (await Ledger.spend(db, projectId, Ledger.dayOf(at))).filter(
      (spend) => args.chain === undefined || spend.chainId === args.chain,
    )
    const day = new Date(at).toISOString().slice(0, 10)
    console.log(
      `Sponsorship of ${projectId}, ${day} (UTC)${policy ? '' : ': not sponsored by this configuration'}`,
    )
    if (spends.length === 0) console.log('  nothing spent or held')
    for (const spend of spends) {
      const chain = config.chains.find((item) => item.id === spend.chainId)
      const amount = (wei: bigint) =>
        chain
          ? `${formatUnits(wei, chain.nativeCurrency.decimals)} ${chain.nativeCurrency.symbol}`
          : `${wei} wei`
      const of = (limit: bigint | undefined) => (limit === undefined ? '' : ` of ${amount(limit)}`)
      const count = (n: number) => `${n} operation${n === 1 ? '' : 's'}`
      console.log(`${spend.chainId}${chain ? ` (${chain.name})` : ''}`)
      console.log(
        `  day\t${amount(spend.today.cost)}${of(policy?.budget.perDay)}, ${count(spend.today.operations)}`,
      )
      console.log(
        `  total\t${amount(spend.total.cost)}${of(policy?.budget.total)}, ${count(spend.total.operations)}`,
      )
      console.log(`  reserved\t${amount(spend.reserved)} for signed operations not yet seen on chain`)
      for (const sender of spend.senders)
        console.log(
          `  ${sender.sender}\t${amount(sender.cost)}${of(policy?.budget.perSenderPerDay)} that day, ${count(sender.operations)}, ${amount(sender.reserved)} reserved`,
        )
    }
    return 0
  })
}
