// Debian's fortunes packages: downloaded (or found) and extracted, and their fortune text files.
import { execFileSync } from 'node:child_process'
import { existsSync, lstatSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

/** The packages read, in the first-run id order of their fortunes. */
const PACKAGES = ['fortunes', 'fortunes-min']
/** Where the packages keep their fortune files. */
export const FORTUNE_DIR = 'usr/share/games/fortunes'

/** A package extracted under `root`. */
export type Deb = { pkg: string; version: string; root: string }

function sh(cmd: string, args: string[], cwd?: string): string {
  return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
}

/** Downloads (or finds) the debs and extracts each into work/<package>. */
export function fetchDebs(work: string): Deb[] {
  const debDir = process.env.FORTUNES_DEB_DIR ?? work
  if (!process.env.FORTUNES_DEB_DIR) {
    try {
      sh('apt-get', ['download', ...PACKAGES], work)
    } catch (err) {
      const msg = (err as { stderr?: string }).stderr ?? String(err)
      throw new Error(
        `apt-get download ${PACKAGES.join(' ')} failed (run as root on Debian?)\n${msg}`,
      )
    }
  }
  return PACKAGES.map((pkg) => {
    const deb = readdirSync(debDir).find((f) => f.startsWith(`${pkg}_`) && f.endsWith('.deb'))
    if (!deb) throw new Error(`no ${pkg}_*.deb in ${debDir}`)
    const root = join(work, pkg)
    sh('dpkg-deb', ['-x', join(debDir, deb), root])
    return { pkg, version: sh('dpkg-deb', ['-f', join(debDir, deb), 'Version']).trim(), root }
  })
}

/** strfile text files under dir, recursively, in name order. Symlinks (`*.u8` point at the
 *  text file) and anything with an extension (`*.dat` indexes) are not fortune text. */
export function fortuneFiles(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name)
      const st = lstatSync(path)
      if (st.isSymbolicLink()) return []
      if (st.isDirectory()) return fortuneFiles(path)
      return name.includes('.') ? [] : [path]
    })
}
