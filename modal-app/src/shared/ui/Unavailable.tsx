/** A view's place taken by why it cannot be used here (Buy and Swap in a restricted region, `Region.ts`). */
export function Unavailable({ message }: { message: string }) {
  return (
    <div className="view">
      <p className="notice" role="status">
        {message}
      </p>
    </div>
  )
}
