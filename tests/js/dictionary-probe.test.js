// Dictionaries as an exact index inside probe(), against independent truth: DuckDB files whose chunks
// are dictionary-encoded throughout (DuckDB builds dictionaries from the values) answer every stored
// value 'present' and every other value 'absent' with dictionary: true — never 'maybe' — and the truth
// is DuckDB's own read-back of each row group. A chunk that fell back to plain pages is left to the
// other indexes, and the dictionary reads share the probe's one wave.
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { before, describe, test } from 'node:test'

import { parquetMetadata } from 'hyparquet'

import { openParquet } from '../../js/index.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { withDuckDB } from '../../testkit/duckdb.js'

const ROW_GROUP = 2048
const GROUPS = 3
const COLUMNS = {
  i: `((i * 7919) % 500)::INTEGER`,
  bi: `((i * 104729) % 700)::BIGINT * 1000003`,
  d: `CASE WHEN i % 500 = 7 THEN '-0.0'::DOUBLE ELSE ((i * 31) % 300) / 7.0 END`,
  s: `'name-' || ((i * 13) % 400)`,
  dt: `DATE '2020-01-01' + ((i * 17) % 365)::INTEGER`,
  dec: `(((i * 7) % 250) * 1.25)::DECIMAL(9, 2)`,
  u: `md5(((i * 3) % 300)::VARCHAR)::UUID`,
}

const dir = await tempDir('dict')
let written
before(async () => {
  written = await writeDuckdb(path.join(dir, 'dictionary.parquet'))
})

async function writeDuckdb(file) {
  return await withDuckDB(async (conn) => {
    const select = Object.entries(COLUMNS).map(([c, sql]) => `${sql} AS ${c}`).join(', ')
    await conn.run(`COPY (SELECT ${select} FROM range(${ROW_GROUP * GROUPS}) t(i) ORDER BY hash(i)) TO '${file}'
      (FORMAT parquet, ROW_GROUP_SIZE ${ROW_GROUP}, DICTIONARY_SIZE_LIMIT 1000000, COMPRESSION zstd)`)
    const texts = Object.keys(COLUMNS).map((c) => `${c}::VARCHAR AS ${c}`).join(', ')
    const rows = (await conn.runAndReadAll(`SELECT file_row_number, ${texts} FROM read_parquet('${file}', file_row_number = true)`)).getRowObjects()
    const bytes = new Uint8Array(await readFile(file))
    const sizes = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)).row_groups.map((g) => Number(g.num_rows))
    const truth = {}
    for (const c of Object.keys(COLUMNS)) truth[c] = sizes.map(() => new Set())
    for (const row of rows) {
      let g = 0
      for (let r = Number(row.file_row_number); r >= sizes[g]; g++) r -= sizes[g]
      for (const c of Object.keys(COLUMNS)) truth[c][g].add(row[c])
    }
    return { path: file, truth }
  })
}

describe('dictionary-only chunks in probe()', () => {
  test('dictionary: true answers present or absent, exactly as DuckDB reads each row group', async (t) => {
    const file = await openParquet(written.path)
    try {
      for (const column of Object.keys(COLUMNS)) {
        const everything = [...new Set(written.truth[column].flatMap((set) => [...set]))]
        const result = await file.probe(column, [...everything, ...absentValues(column)], { dictionary: true, statistics: false })
        let present = 0
        for (const rg of result.rowGroups) {
          const stored = written.truth[column][rg.index]
          rg.results.forEach((r, i) => {
            const value = i < everything.length ? everything[i] : undefined
            const holds = value !== undefined && stored.has(value)
            assert.ok(r.verdict === 'present' || r.verdict === 'absent', `${column} ${r.value} row group ${rg.index}: ${r.verdict} (${r.reason}: ${r.detail})`)
            assert.equal(r.source, 'dictionary', `${column} ${r.value}`)
            assert.equal(r.verdict === 'present', holds, `${column} ${r.value} in row group ${rg.index}: ${r.verdict}, DuckDB says ${holds ? 'stored' : 'not stored'}`)
            if (holds) present++
          })
        }
        t.diagnostic(`${column}: ${present} present answers, all exact`)
      }
    } finally {
      await file.close()
    }
  })

  test('auto takes the cheaper of dictionary and bloom filter; dictionary: true reads every dictionary in one wave', async () => {
    const file = await openParquet(written.path)
    try {
      const value = [...written.truth.s[1]][0]
      // DuckDB also writes a bloom filter for dictionary-encoded chunks, smaller than these dictionaries.
      const auto = await file.probe('s', [value, 'never-written'], { statistics: false })
      assert.ok(auto.rowGroups.every((g) => g.results.every((r) => r.source === 'bloom-filter')), 'auto: the filters are cheaper')
      const before = file.stats.rounds
      const exact = await file.probe('s', [value, 'never-written'], { statistics: false, dictionary: true })
      assert.ok(exact.rowGroups.every((g) => g.results.every((r) => r.source === 'dictionary')))
      assert.equal(exact.rowGroups[1].results[0].verdict, 'present')
      assert.ok(exact.rowGroups.every((g) => g.results[1].verdict === 'absent'))
      assert.ok(file.stats.rounds - before <= 1, `${file.stats.rounds - before} rounds for ${GROUPS} dictionaries`)
      const off = await file.probe('s', [value], { statistics: false, dictionary: false })
      assert.ok(off.rowGroups.every((g) => g.results[0].source !== 'dictionary'), 'dictionary: false reads none')
      await assert.rejects(file.probe('s', [value], { dictionary: 'always' }), { code: 'INVALID_ARGUMENT' })
    } finally {
      await file.close()
    }
  })
})

function absentValues(column) {
  switch (column) {
    case 'i': return ['100000', '-5']
    case 'bi': return ['999999999999']
    case 'd': return ['12345.5']
    case 's': return ['name-99999', 'other']
    case 'dt': return ['2030-01-01']
    case 'dec': return ['99999.99']
    case 'u': return ['00000000-0000-0000-0000-000000000000']
    default: return []
  }
}
