import { CheckIcon, CloseIcon } from '../../shared/ui/icons.tsx'
import type { Snack as SnackData } from '../Snackbar.ts'

/**
 * The snackbar. The live region is always in the page, so screen readers announce each new message: an
 * error interrupts (`alert`), the rest waits its turn (`status`); both roles imply their aria-live. The
 * message is keyed by id, so a replacement animates in again.
 */
export function Snack({ snack }: { snack: SnackData | undefined }) {
  const role = snack?.variant === 'error' ? 'alert' : 'status'
  return (
    <div className="snackbar-region" role={role} data-testid="snackbar">
      {snack && (
        <div key={snack.id} className={`snackbar snackbar-${snack.variant}`} data-variant={snack.variant}>
          {snack.variant === 'loading' && <span className="spinner" aria-hidden="true" />}
          {snack.variant === 'success' && <CheckIcon />}
          {snack.variant === 'error' && <CloseIcon />}
          <span>{snack.message}</span>
        </div>
      )}
    </div>
  )
}
