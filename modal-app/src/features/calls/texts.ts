import { define } from '../../shared/i18n/Catalogue.ts'

/** The calls view's texts (a dApp's EIP-5792 batch), beside the feature so they load with its chunk. */
export const callsTexts = define('calls', {
  requestedBy: 'Sent by {origin}',
  network: 'Network',
  from: 'From',
  list: 'Calls in this batch',
  call: 'Call {n} of {count}',
  to: 'To {address}',
  deploy: 'Creates a contract',
  value: 'Sends {amount}',
  data: 'With data {selector}',
  oneByOne:
    'Your wallet runs these calls one by one: each is its own transaction, and one that fails leaves the calls before it done.',
  atomic: 'These calls run together: all of them happen or none does.',
  state: {
    waiting: 'Waiting',
    asking: 'Confirm in your wallet',
    pending: 'Sent, waiting for the network',
    confirmed: 'Confirmed',
    reverted: 'Failed on chain',
    refused: 'Declined in the wallet',
    skipped: 'Not sent',
  },
  status: {
    pending: 'In progress',
    confirmed: 'All calls confirmed',
    failed: 'A call failed on chain; the calls before it stay done',
    partial: 'Only some calls were sent',
    offchain: 'Nothing was sent',
  },
  done: 'Done',
  // Developer-facing refusals: the dApp's promise rejects with these, in English (functions stay as they are).
  malformed: () => 'The wallet answered wallet_sendCalls without a batch id.',
  unreachable: () => 'The network cannot be read right now.',
  otherChain: (chain: string) =>
    `The wallet is on another chain. Switch it to ${chain} before sending calls there.`,
})
