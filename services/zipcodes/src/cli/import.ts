import { randomUUID } from 'node:crypto';
// npm run zip:import -- <file-or-folder> [...more]
// Imports ZIP code analyses from JSON files (one analysis, or an array of them, per file; a folder
// means every .json file under it). Each record is checked on its own and upserted by ZIP code;
// the report names every refused record with its file, position and reasons.
// Exit code: 0 all imported, 1 something refused or unreadable, 2 usage.
import { readFile, readdir, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { databaseOf, runCli, withCliConnections } from '@homereport/kit';
import { loadImportCommandConfig } from '../config.js';
import { AnalysesRepository } from '../data/analyses-repository.js';
import { analysesCollection } from '../data/analysis-model.js';
import { ListIndex } from '../data/list-index.js';
import { ZipAlertsRepository, markingBatchOutbox } from '../data/zip-alerts.js';
import { ZipWatchesRepository } from '../data/zip-watches.js';
import { importAnalyses } from '../domain/import.js';
import { alertWatchers } from '../domain/zip-watches.js';
import { ZIP_ALERT_BATCHES } from '../events/published.js';

const USAGE = 'Usage: npm run zip:import -- <file-or-folder> [more files or folders]';

interface Source {
  file: string;
  /** Position inside the file's array, or null when the file holds one analysis. */
  position: number | null;
}

async function jsonFiles(path: string): Promise<string[]> {
  const info = await stat(path);
  if (!info.isDirectory()) return [path];
  const entries = await readdir(path, { withFileTypes: true });
  const nested = await Promise.all(
    entries
      .filter((e) => e.isDirectory() || e.name.toLowerCase().endsWith('.json'))
      .map((e) => jsonFiles(join(path, e.name))),
  );
  return nested.flat().sort();
}

async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv.some((a) => a === '-h' || a === '--help')) {
    console.error(`Expected at least one JSON file or folder.\n${USAGE}`);
    return argv.length === 0 ? 2 : 0;
  }

  const records: unknown[] = [];
  const sources: Source[] = [];
  let problems = 0;
  for (const arg of argv) {
    let files: string[];
    try {
      files = await jsonFiles(resolve(arg));
    } catch (err) {
      console.error(`${arg}: cannot be read (${(err as Error).message})`);
      problems++;
      continue;
    }
    if (files.length === 0) console.error(`${arg}: holds no .json file`);
    for (const file of files) {
      const name = relative(process.cwd(), file) || file;
      try {
        const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
        const items = Array.isArray(parsed) ? parsed : [parsed];
        items.forEach((item, i) => {
          records.push(item);
          sources.push({ file: name, position: Array.isArray(parsed) ? i : null });
        });
      } catch (err) {
        console.error(`${name}: not readable JSON (${(err as Error).message})`);
        problems++;
      }
    }
  }
  if (records.length === 0) {
    console.error('Nothing to import.');
    return 1;
  }

  const config = loadImportCommandConfig();
  return withCliConnections(config, async (mongo, redis) => {
    const db = databaseOf(mongo);
    const store = new AnalysesRepository(analysesCollection(db));
    const list = new ListIndex(redis, () => store.listItems());
    // No relay here: the alerts are marked for the running service's relay to publish.
    const alerts = new ZipAlertsRepository(db, markingBatchOutbox(db));
    const watches = new ZipWatchesRepository(db, ZIP_ALERT_BATCHES.collection);
    let alerted = 0;
    const report = await importAnalyses(records, store, list, {
      onWriteError: (zipCode, err) => console.error(`${zipCode}: database error: ${(err as Error).message}`),
      onChanges: async (changes) => {
        alerted = await alertWatchers(randomUUID(), changes, { watches, alerts });
      },
      onChangesError: (err) => {
        console.error(`Watchers of changed ZIP codes not all alerted: ${(err as Error).message}`);
        problems++;
      },
    });

    const shown = report.imported.slice(0, 20).join(', ');
    const more = report.imported.length > 20 ? ` and ${report.imported.length - 20} more` : '';
    console.log(`Imported ${report.imported.length} of ${records.length} analyses${shown ? `: ${shown}${more}` : ''}.`);
    if (alerted > 0) console.log(`Alerted ${alerted} ${alerted === 1 ? 'watcher' : 'watchers'} of changed ZIP codes.`);
    if (report.refused.length > 0) {
      console.log(`Refused ${report.refused.length}:`);
      for (const r of report.refused) {
        const source = sources[r.index];
        const where = source
          ? `${source.file}${source.position === null ? '' : ` [${source.position}]`}`
          : `#${r.index}`;
        console.log(`  ${where}${r.zipCode ? ` (${r.zipCode})` : ''}:`);
        for (const e of r.errors) console.log(`    - ${e}`);
      }
    }
    return report.refused.length > 0 || problems > 0 ? 1 : 0;
  });
}

runCli('zip:import', main);
