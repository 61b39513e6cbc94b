/** A `{ info, warn }` log (the shape migrate and ensureDatabase take) that keeps every call. */
export function recordedLog() {
  const calls = { info: [] as [object, string?][], warn: [] as [object, string?][] }
  const log = {
    info: (fields: object, msg?: string) => calls.info.push([fields, msg]),
    warn: (fields: object, msg?: string) => calls.warn.push([fields, msg]),
  }
  return { log, calls }
}
