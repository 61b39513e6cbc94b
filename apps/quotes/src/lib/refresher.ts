/**
 * Reloads an in-memory view of Postgres on use, at most every `everyMs`: reads call `maybe()`,
 * which starts a reload in the background when the last one is older than that (never two at
 * once). No timer: an idle instance reads nothing. A failed reload keeps what was loaded, goes to
 * `onError`, and is tried again `everyMs` later. With a `version` (the data's change counter), a
 * reload first looks at it and is skipped, counting as done, while it is the one the view was
 * loaded at.
 */
export class Refresher {
  private loadedAt = 0
  /** The data's version the view was loaded at (read before the load started). */
  private loadedVersion: string | undefined
  private running: Promise<void> | undefined

  constructor(
    private readonly load: () => Promise<void>,
    private readonly everyMs: number,
    private readonly onError: (error: unknown) => void = () => {},
    private readonly version?: () => Promise<string>,
  ) {}

  /** Records a load completed now (however it was started). */
  loaded(): void {
    this.loadedAt = Date.now()
  }

  /**
   * Loads now, whatever the view's age, and records it with the version read before it started
   * (so a change made during the load is seen as a change at the next look).
   */
  async loadNow(): Promise<void> {
    await this.loadAt(await this.version?.())
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
    if (!this.version) return this.loadAt(undefined)
    return this.version().then((version) =>
      version === this.loadedVersion ? this.loaded() : this.loadAt(version),
    )
  }

  private async loadAt(version: string | undefined): Promise<void> {
    await this.load()
    this.loadedVersion = version
    this.loaded()
  }
}
