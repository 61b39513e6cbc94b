/**
 * Reloads an in-memory view of Postgres on use, at most every `everyMs`: reads call `maybe()`,
 * which starts a reload in the background when the last one is older than that (never two at
 * once). No timer: an idle instance reads nothing. A failed reload keeps what was loaded, goes to
 * `onError`, and is tried again `everyMs` later. When `unchanged` resolves true (the data has not
 * changed since the last load), the reload is skipped and counts as done.
 */
export class Refresher {
  private loadedAt = 0
  private running: Promise<void> | undefined

  constructor(
    private readonly load: () => Promise<void>,
    private readonly everyMs: number,
    private readonly onError: (error: unknown) => void = () => {},
    private readonly unchanged?: () => Promise<boolean>,
  ) {}

  /** Records a load completed now (however it was started). */
  loaded(): void {
    this.loadedAt = Date.now()
  }

  /** Starts a background reload when the view is older than `everyMs`. */
  maybe(): void {
    if (this.running || Date.now() - this.loadedAt < this.everyMs) return
    this.running = this.reload()
      .catch((error: unknown) => {
        this.loaded()
        this.onError(error)
      })
      .finally(() => {
        this.running = undefined
      })
  }

  private reload(): Promise<void> {
    if (!this.unchanged) return this.load()
    return this.unchanged().then((same) => (same ? this.loaded() : this.load()))
  }
}
