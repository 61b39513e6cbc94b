import { stringify } from 'csv-stringify/sync'

/**
 * A spreadsheet opens a cell starting with = + - @ (or a tab or carriage return) as a formula:
 * key names are people's text, so such a cell is prefixed with a quote (OWASP's advice on CSV
 * injection).
 */
export function safeCell(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text
}

/** CSV text (RFC 4180: quoted as needed, CRLF line ends) with a header row. */
export function toCsv(header: string[], rows: (string | number)[][]): string {
  return stringify([header, ...rows], { record_delimiter: 'windows' })
}
