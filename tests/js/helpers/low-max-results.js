// Preloaded into a CLI run by tests (node --import): every dataset probe of the process, probe() and probeEach(), is
// given maxResults 1 unless it names one — a probe over the TOO_LARGE threshold at a test's scale (probeEach has none).
import { ParquetDataset } from '../../../js/dataset/dataset.js'

for (const name of /** @type {const} */ (['probe', 'probeEach'])) {
  const original = ParquetDataset.prototype[name]
  ParquetDataset.prototype[name] = function (column, values, options = {}) {
    return original.call(this, column, values, { maxResults: 1, ...options })
  }
}
