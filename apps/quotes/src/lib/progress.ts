import { Presets, SingleBar } from 'cli-progress'

/**
 * A progress bar on stderr for long commands (load-synthetic): redrawn in place on a terminal;
 * when stderr is not one (CI, a log file), one line every few seconds instead.
 */
export function progressBar(label: string, total: number): SingleBar {
  const bar = new SingleBar(
    {
      format: `${label} [{bar}] {percentage}% | {value}/{total} | {duration_formatted} elapsed | ETA {eta_formatted}`,
      stream: process.stderr,
      noTTYOutput: true,
      notTTYSchedule: 5_000,
      hideCursor: true,
      etaBuffer: 20,
      // Counts with thousands separators; the percentage (a string of at most 100) reads the same.
      formatValue: (value) => value.toLocaleString('en'),
    },
    Presets.shades_classic,
  )
  bar.start(total, 0)
  return bar
}
