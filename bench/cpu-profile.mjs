// Preloaded with `--import` (bench:gateway's BENCH_CPU_PROF): records a V8 CPU profile of the whole
// process and writes it to $CPU_PROFILE_DIR/<pid>.cpuprofile when the process exits, as
// `node --cpu-prof` would (which NODE_OPTIONS does not accept). Open it in Chrome DevTools.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

const session = new Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.start');
process.once('exit', () => {
  // The in-process session answers synchronously, so this runs to the end inside the exit handler.
  session.post('Profiler.stop', (err, result) => {
    if (!err)
      writeFileSync(
        join(process.env.CPU_PROFILE_DIR ?? '.', `${process.pid}.cpuprofile`),
        JSON.stringify(result.profile),
      );
  });
});
