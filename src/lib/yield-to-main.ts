/**
 * Lets the browser handle a tap and paint before the next step of background work (the field mirror's start and
 * sync): each step then runs as its own short task rather than all of them as one long one. A message, not a
 * timer: it comes back at once, is not throttled in a background tab, and fake timers in tests leave it alone.
 */
export function yieldToMain(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel()
    channel.port1.onmessage = () => {
      channel.port1.close()
      resolve()
    }
    channel.port2.postMessage(null)
  })
}
