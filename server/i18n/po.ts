export type CatalogEntry = { id: string; text: string }

/** Reads the msgid/msgstr pairs of a .po file (single- and multi-line strings), skipping the header. */
export function parsePo(source: string): CatalogEntry[] {
  const entries: CatalogEntry[] = []
  let field: 'id' | 'text' | null = null
  let current: CatalogEntry = { id: '', text: '' }
  const flush = () => {
    if (current.id !== '') entries.push(current)
    current = { id: '', text: '' }
  }
  for (const line of source.split('\n')) {
    if (line.startsWith('msgid ')) {
      flush()
      field = 'id'
      current.id = JSON.parse(line.slice(6))
    } else if (line.startsWith('msgstr ')) {
      field = 'text'
      current.text = JSON.parse(line.slice(7))
    } else if (line.startsWith('"') && field) {
      current[field] += JSON.parse(line)
    } else {
      field = null
    }
  }
  flush()
  return entries
}
