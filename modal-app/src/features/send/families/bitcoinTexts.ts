/**
 * The Bitcoin family's own texts, beside `sendTexts` (which has none of these yet).
 */
export const bitcoinTexts = {
  inputs: 'Inputs',
  output: 'Output',
  change: 'Change',
  virtualSize: 'Virtual size',
  fast: 'Fast',
  normal: 'Normal',
  slow: 'Slow',
  satPerVbyte: (rate: number) => `${rate} sat/vB`,
  coins: (count: number, amount: string) => `${count} · ${amount}`,
  payment: (address: string, amount: string) => `${address} · ${amount}`,
  invalidFeeRate: 'The fee rate must be a number of sat/vB',
  dust: (minimum: string) => `The amount must be at least ${minimum}: the network does not relay less`,
  unsupportedSender:
    'Send spends from native segwit, nested segwit and taproot addresses; this account is of another kind',
  publicKeyNeeded: 'The wallet did not share the public key this address needs to spend',
  walletChanged: 'The wallet changed the transaction it was asked to sign. Nothing was sent.',
  notSigned: 'The wallet did not sign every input. Nothing was sent.',
  answered: (network: string, reason: string) => `${network} answered: ${reason}`,
  refused: (network: string, reason: string) => `${network} refused the transaction: ${reason}`,
  otherTxid: (answered: string) => `The network answered another transaction id: ${answered}`,
  unconfirmed: (txid: string) =>
    `Transaction ${txid} is not confirmed after 2 minutes. It may still confirm: look for it on the explorer.`,
} as const
