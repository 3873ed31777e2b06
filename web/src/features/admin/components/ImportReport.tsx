import type { ZipImportReport } from '@homereport/contracts';
import { Link } from 'react-router-dom';
import { Icon } from '../../../components/Icon';
import { StatCard } from '../../../components/StatCard';

/** What an import did: how many records were stored and refused, which, and why each refusal. */
export function ImportReport({ report, fileName }: { report: ZipImportReport; fileName: string }) {
  const { imported, refused } = report;
  return (
    <section className="card zip-import-report" data-testid="import-report" aria-labelledby="import-report-title">
      <h2 className="card-title" id="import-report-title">
        <Icon name="checkCircle" /> Import of {fileName}
      </h2>
      <div className="stat-grid zip-import-counts">
        <StatCard label="Imported" value={imported.length} icon="checkCircle" tone="green" testId="import-count" />
        <StatCard label="Refused" value={refused.length} icon="alert" tone="yellow" testId="refused-count" />
      </div>

      <h3>Imported ZIP codes</h3>
      {imported.length === 0 ? (
        <p className="muted" data-testid="imported-none">
          No record was imported.
        </p>
      ) : (
        <ul className="zip-import-codes" data-testid="imported-list">
          {imported.map((zip) => (
            <li key={zip}>
              <Link to={`/zip/${encodeURIComponent(zip)}`} data-testid="imported-zip">
                {zip}
              </Link>
            </li>
          ))}
        </ul>
      )}

      <h3>Refused records</h3>
      {refused.length === 0 ? (
        <p className="muted" data-testid="refused-none">
          Every record passed the checks.
        </p>
      ) : (
        <div className="zip-import-table-wrap">
          <table className="zip-import-table" data-testid="refused-table">
            <caption>
              Records the server refused, by their index in the file's array (counted from 0), with every reason.
              Nothing of a refused record was stored; fix it and import it again.
            </caption>
            <thead>
              <tr>
                <th scope="col">Index</th>
                <th scope="col">ZIP code</th>
                <th scope="col">Reasons</th>
              </tr>
            </thead>
            <tbody>
              {refused.map((row) => (
                <tr key={row.index} data-testid="refused-row" data-index={row.index}>
                  <td>{row.index}</td>
                  <td>{row.zipCode ?? <span className="muted">none given</span>}</td>
                  <td>
                    <ul className="zip-import-reasons">
                      {row.errors.map((error) => (
                        <li key={error}>{error}</li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
