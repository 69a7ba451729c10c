// Preloaded into a CLI run by tests (node --import): every dataset probe of the process is given a low maxResults unless it
// names one — a probe over the TOO_LARGE threshold at a test's scale. probe(): 1. probeEach() holds no total, but a file
// whose own answers (values × its row groups) pass it is that file's TOO_LARGE: the values' count, so that a file of one
// row group (the tests' Hive datasets' files) fits and probe()'s total (values × files × 2) does not.
import { ParquetDataset } from '../../../js/dataset/dataset.js'

for (const name of /** @type {const} */ (['probe', 'probeEach'])) {
  const original = ParquetDataset.prototype[name]
  ParquetDataset.prototype[name] = function (column, values, options = {}) {
    const list = Array.from(values)
    return original.call(this, column, list, { maxResults: name === 'probe' ? 1 : Math.max(1, list.length), ...options })
  }
}
