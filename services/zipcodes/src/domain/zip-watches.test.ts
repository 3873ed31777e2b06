import type { ZipChange, ZipWatchAlerted } from '@homereport/contracts';
import { describe, expect, it } from 'vitest';
import { ALERT_BATCH, type Watcher, alertWatchers } from './zip-watches.js';

const change = (zipCode: string): ZipChange => ({
  zipCode,
  place: 'Dayton, OH',
  changes: [{ measure: 'risk', from: 'low', to: 'high' }],
});

/** Watchers handed out one at a time, counting how many were read before each batch was written. */
function source(watchers: Watcher[]) {
  let read = 0;
  return {
    get read() {
      return read;
    },
    async *watchers() {
      for (const w of watchers) {
        read++;
        yield w;
      }
    },
  };
}

describe('alertWatchers', () => {
  it('one alert per watcher of a changed ZIP code, listing all their changed ZIP codes and nothing else', async () => {
    const watches = source([
      { userId: 'a', email: 'a@x.test', zips: ['45401', '45402', '45409'] },
      { userId: 'b', email: 'b@x.test', zips: ['45402'] },
      { userId: 'c', email: 'c@x.test', zips: ['45409'] },
    ]);
    const written: ZipWatchAlerted[][] = [];
    const count = await alertWatchers('imp', [change('45401'), change('45402')], {
      watches,
      alerts: { record: async (batch) => void written.push(batch) },
    });
    expect(count).toBe(2);
    expect(written).toEqual([
      [
        { importId: 'imp', userId: 'a', email: 'a@x.test', zips: [change('45401'), change('45402')] },
        { importId: 'imp', userId: 'b', email: 'b@x.test', zips: [change('45402')] },
      ],
    ]);
  });

  it('writes as it reads: a batch goes out once full, before the next watchers are read', async () => {
    const many = Array.from({ length: ALERT_BATCH * 2 + 5 }, (_, i) => ({
      userId: `u${i}`,
      email: `u${i}@x.test`,
      zips: ['45401'],
    }));
    const watches = source(many);
    const readAtWrite: number[] = [];
    const sizes: number[] = [];
    const count = await alertWatchers('imp', [change('45401')], {
      watches,
      alerts: {
        record: async (batch) => {
          readAtWrite.push(watches.read);
          sizes.push(batch.length);
        },
      },
    });
    expect(count).toBe(many.length);
    expect(sizes).toEqual([ALERT_BATCH, ALERT_BATCH, 5]);
    expect(readAtWrite).toEqual([ALERT_BATCH, ALERT_BATCH * 2, many.length]);
  });
});
