// Table metadata pruning against independent truth: no value a data file of any table fixture holds
// (read with hyparquet) may be ruled out for that file by the table's metadata — partitions, bounds,
// counts — and the metadata must rule out files for values they do not hold (reported, per table).
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'

import { loadTable } from '../../js/table/load-table.js'
import { pruneFile } from '../../js/table/prune.js'
import { valueKeys } from '../../js/table/column-keys.js'
import { fixturePath, missingFixture } from './helpers/fixtures.js'
import { probeForm, TABLE_FIXTURES, valuesOfTable } from './helpers/table-truth.js'

describe('table metadata never rules out a value its file holds', () => {
  for (const name of TABLE_FIXTURES) {
    const skip = missingFixture(`tables/${name}`)
    test(name, { skip }, async (t) => {
      const table = await loadTable(fixturePath(`tables/${name}`))
      const truth = await valuesOfTable(table)
      let checked = 0
      let ruledOut = 0
      let asked = 0
      for (const field of table.fields) {
        const all = truth.flatMap(({ columns }) => (columns.get(field.name) ?? []).map((v) => probeForm(field, v)))
        if (all.length === 0) continue
        const distinct = [...new Map(all.map((v) => [typeof v === 'object' && !(v instanceof Date) ? String(v) : `${typeof v}:${v instanceof Date ? v.getTime() : v}`, v])).values()]
        let keyed
        try { keyed = valueKeys(field.type, distinct) } catch { continue }
        for (const { file, columns } of truth) {
          const here = new Set((columns.get(field.name) ?? []).map((v) => probeForm(field, v)).map((v) => (v instanceof Date ? v.getTime() : v instanceof Uint8Array ? String(v) : v)))
          const answers = pruneFile(file, field, keyed)
          distinct.forEach((v, k) => {
            const id = v instanceof Date ? v.getTime() : v instanceof Uint8Array ? String(v) : v
            if (here.has(id)) {
              checked++
              // Null, or (a Delta partition column) maybe: never absent.
              assert.notEqual(answers[k]?.verdict, 'absent', `${name}: ${file.path}: ${field.name} = ${String(v)} is in the file but the metadata says ${JSON.stringify(answers[k])}`)
            } else {
              asked++
              if (answers[k]?.verdict === 'absent') ruledOut++
            }
          })
        }
      }
      assert.ok(checked > 0, 'some values were checked')
      t.diagnostic(`${name}: ${table.files.length} files; ${checked} (file, value) pairs held, none ruled out; of ${asked} pairs not held, the metadata ruled out ${ruledOut} (${asked ? Math.round((100 * ruledOut) / asked) : 0}%)`)
    })
  }
})
