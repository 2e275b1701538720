import { define } from '../../shared/i18n/Catalogue.ts'

/** Smart sessions' texts, beside the feature so they load with its chunk. */
export const sessionTexts = define('sessions', {
  asks: '{origin} asks for a session key',
  explain: 'Until the session ends, the app can do this from your account without asking you again:',
  call: 'Call',
  contract: 'Contract',
  limit: 'Spend limit',
  noSpend: 'Nothing: calls without value only',
  gas: 'Network fees',
  gasAllowance: 'Up to {amount} from your account, when no sponsor pays',
  noGas: 'None from your account: only when a sponsor pays',
  gasSpent: '{spent} of {allowance} spent on network fees',
  until: 'Until',
  key: 'Session key',
  onChain: 'Your account enforces these limits on chain. You can revoke the session in Account at any time.',
  grant: 'Grant',
  reject: 'Reject',
  granting: 'Confirm the operation that grants it…',
  none: 'No active sessions',
  loading: 'Reading your sessions…',
  unreachable: 'Your sessions cannot be read right now.',
  grantedTo: 'Granted to {origin}',
  spent: '{spent} of {limit} spent',
  revoke: 'Revoke',
  revoking: 'Revoking…',
  revoked: 'Session revoked',
  // Developer-facing refusals (the dApp's promise rejects with these), English.
  needsSmartAccount: () =>
    'Smart sessions need a smart account: the visitor can switch the account type in Account.',
  failed: (status: number) => `The operation granting the session did not succeed (status ${status}).`,
  unknownSession: () => 'No session of this account has that context.',
})
