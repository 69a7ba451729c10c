// What a table's metadata can prune, per column, for `inspect` of a table: how many live files carry
// bounds, null counts and NaN counts for it, which partition fields derive from it, and the table's
// snapshots (Iceberg) or version (Delta).

/**
 * @param {import('./load-table.js').LoadedTable} table
 */
export function summarizeTable(table) {
  const columns = table.fields.filter((f) => f.type.kind !== 'other').map((field) => {
    let bounds = 0
    let nullCounts = 0
    let nanCounts = 0
    for (const file of table.files) {
      const facts = file.columnFacts.get(field.id)
      if (facts?.lower !== undefined || facts?.upper !== undefined) bounds++
      if (facts?.nullCount !== undefined) nullCounts++
      if (facts?.nanCount !== undefined) nanCounts++
    }
    const partitions = new Set()
    for (const file of table.files) {
      for (const p of file.partitions) {
        if (p.sourceId === field.id) partitions.add(`${p.transform.name}${p.transform.arg !== undefined ? `[${p.transform.arg}]` : ''}`)
      }
    }
    return { column: field.name, type: field.type.kind, files: table.files.length, bounds, nullCounts, nanCounts,
      partitions: [...partitions] }
  })
  const deletes = { position: 0, equality: 0, dv: 0 }
  for (const file of table.files) for (const kind of new Set(file.deletes.map((d) => d.kind))) deletes[kind]++
  return {
    format: table.format,
    writer: table.writer,
    ...(table.format === 'iceberg'
      ? {
          snapshot: table.snapshot ? String(table.snapshot['snapshot-id']) : null,
          snapshots: (table.metadata?.snapshots ?? []).map((s) => ({
            id: String(s['snapshot-id']), timestampMs: Number(s['timestamp-ms']), operation: s.summary?.operation ?? null,
          })),
        }
      : { version: table.version }),
    files: table.files.length,
    filesWithDeletes: deletes,
    columns,
  }
}
