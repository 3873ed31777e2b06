import { randomUUID } from 'node:crypto';
import type { CoverageRequest, ReportSummary } from '@homereport/contracts';
import { describe, expect, it } from 'vitest';
import { api } from '../../../test/support/api.js';
import { session, setStatus, submit, uploadReport, useAdmin } from './support.js';

/** A report's headline figures and the covered list by ZIP code (api.md "Report summary"; issue 40). */
const admin = useAdmin();

const FIGURES: ReportSummary = {
  estimated_value: 485_000,
  monthly_rent: 2_650,
  beds: 3,
  baths: 2.5,
  sqft: 1_840,
  year_built: 1987,
  headline: 'Corner lot near the light rail, priced under the street.',
};

/** A ZIP code no other test uses (the covered list is shared by every test of the run). */
const freshZip = () => String(10_000 + Math.floor(Math.random() * 89_999));

/** An address with a street nobody else's test uses, in `zip`. */
const addressIn = (zip: string) =>
  `${100 + Math.floor(Math.random() * 9000)} Z${randomUUID().slice(0, 8)} Street, Denver, CO ${zip}`;

const putSummary = (id: string, body: unknown, token: string | undefined = admin.token) =>
  api('PUT', `/api/admin/requests/${id}/summary`, { token, body });

async function coveredIn(zip: string): Promise<CoverageRequest> {
  const { request } = await submit({ address: addressIn(zip) });
  await uploadReport(admin, request.id);
  await setStatus(admin, request.id, 'covered');
  return request;
}

/** The covered list's entries of one ZIP code, once the newest covering has reached it. */
async function coveredOf(zip: string, count: number): Promise<CoverageRequest[]> {
  let entries: CoverageRequest[] = [];
  await expect
    .poll(async () => {
      const res = await api('GET', `/api/requests/covered?zip=${zip}`);
      expect(res.status).toBe(200);
      entries = res.body.properties;
      return entries.length;
    })
    .toBe(count);
  return entries;
}

describe('PUT /api/admin/requests/:id/summary', () => {
  it('is for admins only: 401 without a session, 403 for a user; 404 for an unknown request', async () => {
    const { request } = await submit({ address: addressIn(freshZip()) });
    expect((await putSummary(request.id, FIGURES, '')).status).toBe(401);
    const user = await session();
    const refused = await putSummary(request.id, FIGURES, user.token);
    expect(refused.status).toBe(403);
    const shown = await api('GET', `/api/admin/requests/${request.id}`, { token: admin.token });
    expect(shown.body.summary).toBeNull();

    const unknown = await putSummary('0123456789abcdef01234567', FIGURES);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('Request not found.');
  });

  it.each([
    ['estimated_value', 0, 'estimated_value: must be a whole number from 1 to 100,000,000'],
    ['estimated_value', 100_000_001, 'estimated_value: must be a whole number from 1 to 100,000,000'],
    ['estimated_value', 250_000.5, 'estimated_value: must be a whole number from 1 to 100,000,000'],
    ['monthly_rent', 0, 'monthly_rent: must be a whole number from 1 to 100,000,000'],
    ['monthly_rent', 100_000_001, 'monthly_rent: must be a whole number from 1 to 100,000,000'],
    ['beds', -1, 'beds: must be a whole number from 0 to 50'],
    ['beds', 51, 'beds: must be a whole number from 0 to 50'],
    ['beds', '3', 'beds: must be a whole number from 0 to 50'],
    ['baths', 2.25, 'baths: must be a number from 0 to 50 in steps of 0.5'],
    ['baths', 50.5, 'baths: must be a number from 0 to 50 in steps of 0.5'],
    ['baths', -0.5, 'baths: must be a number from 0 to 50 in steps of 0.5'],
    ['sqft', 99, 'sqft: must be a whole number from 100 to 100,000'],
    ['sqft', 100_001, 'sqft: must be a whole number from 100 to 100,000'],
    ['year_built', 1699, 'year_built: must be a whole number of at least 1700'],
    [
      'year_built',
      new Date().getUTCFullYear() + 2,
      `year_built: must be a whole number from 1700 to ${new Date().getUTCFullYear() + 1}`,
    ],
    ['headline', 'x'.repeat(281), 'headline: must NOT have more than 280 characters'],
  ])(
    'refuses %s %j with a message naming the field and its range, and keeps the figures',
    async (field, value, error) => {
      const { request } = await submit({ address: addressIn(freshZip()) });
      expect((await putSummary(request.id, FIGURES)).status).toBe(200);

      const res = await putSummary(request.id, { ...FIGURES, [field]: value });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error).toBe(error);
      expect(res.body.details).toEqual([{ field, message: error.slice(field.length + 2) }]);
      const shown = await api('GET', `/api/admin/requests/${request.id}`, { token: admin.token });
      expect(shown.body.summary).toEqual(FIGURES);
    },
  );

  it('refuses a field it does not know, and takes the bounds themselves', async () => {
    const { request } = await submit({ address: addressIn(freshZip()) });
    const unknown = await putSummary(request.id, { ...FIGURES, garage: 2 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details[0].field).toBe('garage');

    const lowest = { estimated_value: 1, monthly_rent: 1, beds: 0, baths: 0, sqft: 100, year_built: 1700 };
    expect((await putSummary(request.id, lowest)).body.request.summary).toEqual(lowest);
    const highest = {
      estimated_value: 100_000_000,
      monthly_rent: 100_000_000,
      beds: 50,
      baths: 50,
      sqft: 100_000,
      year_built: new Date().getUTCFullYear() + 1,
      headline: 'y'.repeat(280),
    };
    expect((await putSummary(request.id, highest)).body.request.summary).toEqual(highest);
  });

  it('replaces the figures whole, trims the headline, and an empty object clears them', async () => {
    const { request } = await submit({ address: addressIn(freshZip()) });
    const set = await putSummary(request.id, FIGURES);
    expect(set.status).toBe(200);
    expect(set.body.request).toMatchObject({ id: request.id, summary: FIGURES, requests_count: 1 });

    const replaced = await putSummary(request.id, { beds: 4, headline: '   Big   garden.  ' });
    expect(replaced.body.request.summary).toEqual({ beds: 4, headline: 'Big garden.' });
    const blankHeadline = await putSummary(request.id, { beds: 4, headline: '   ' });
    expect(blankHeadline.body.request.summary).toEqual({ beds: 4 });

    const cleared = await putSummary(request.id, {});
    expect(cleared.status).toBe(200);
    expect(cleared.body.request.summary).toBeNull();
    const mine = await api('GET', `/api/admin/requests/${request.id}`, { token: admin.token });
    expect(mine.body.summary).toBeNull();
  });

  it('belongs to the property: every request of it shows the same figures, before and after covering', async () => {
    const zip = freshZip();
    const address = addressIn(zip);
    const user = await session();
    const first = (await submit({ address })).request;
    const second = (await submit({ address: address.toUpperCase() }, user.token)).request;
    expect(second.property_id).toBe(first.property_id);

    await putSummary(second.id, FIGURES);
    for (const id of [first.id, second.id]) {
      const shown = await api('GET', `/api/admin/requests/${id}`, { token: admin.token });
      expect(shown.body.summary, id).toEqual(FIGURES);
    }
    const mine = await api('GET', '/api/requests/mine', { token: user.token });
    expect(mine.body.requests.find((r: CoverageRequest) => r.id === second.id)?.summary).toEqual(FIGURES);

    await uploadReport(admin, first.id);
    const covered = await setStatus(admin, first.id, 'covered');
    expect(covered.summary).toEqual(FIGURES);
    const listed = await api('GET', `/api/admin/requests?property_id=${first.property_id}`, { token: admin.token });
    expect(listed.body.requests.map((r: CoverageRequest) => r.summary)).toEqual([FIGURES, FIGURES]);
  });
});

describe('the covered list: public figures and the ZIP code', () => {
  it('carries the figures and the ZIP code, and nothing private; a change of figures reaches it', async () => {
    const zip = freshZip();
    const { request } = await submit({ address: addressIn(zip), notes: 'Private: my budget is 400k' });
    await putSummary(request.id, FIGURES);
    await uploadReport(admin, request.id);
    await setStatus(admin, request.id, 'covered');

    const [entry] = await coveredOf(zip, 1);
    expect(entry).toMatchObject({ id: request.id, summary: FIGURES, zip_code: zip, notes: null, report_path: null });
    // The plain first page (kept by the gateway) shows them too, and follows a change at once.
    await expect
      .poll(async () => {
        const list = await api('GET', '/api/requests/covered');
        return list.body.properties.find((p: CoverageRequest) => p.id === request.id)?.summary;
      })
      .toEqual(FIGURES);
    await putSummary(request.id, { headline: 'Now with solar panels.' });
    const list = await api('GET', '/api/requests/covered');
    const shown = list.body.properties.find((p: CoverageRequest) => p.id === request.id);
    expect(shown.summary).toEqual({ headline: 'Now with solar panels.' });
  });

  it('an entry without figures has summary null, and one whose address has no ZIP code zip_code null', async () => {
    const street = `N${randomUUID().slice(0, 8)}`;
    const { request } = await submit({ address: `12 ${street} Road, Boulder, CO` });
    await uploadReport(admin, request.id);
    await setStatus(admin, request.id, 'covered');
    await expect
      .poll(async () => (await api('GET', `/api/requests/covered?q=${street}`)).body.properties)
      .toMatchObject([{ id: request.id, summary: null, zip_code: null }]);
  });
});

describe('GET /api/requests/covered?zip=', () => {
  it('lists only the covered properties of that ZIP code, newest first, with q and by city too', async () => {
    const zip = freshZip();
    const other = freshZip();
    const older = await coveredIn(zip);
    const elsewhere = await coveredIn(other);
    const newer = await coveredIn(zip);
    // Requested but not covered: not listed.
    await submit({ address: addressIn(zip) });

    const entries = await coveredOf(zip, 2);
    expect(entries.map((e) => e.id)).toEqual([newer.id, older.id]);
    expect(entries.every((e) => e.zip_code === zip)).toBe(true);
    expect((await coveredOf(other, 1)).map((e) => e.id)).toEqual([elsewhere.id]);

    const street = older.address.split(' ')[1] ?? '';
    const withWords = await api('GET', `/api/requests/covered?zip=${zip}&q=${street}`);
    expect(withWords.body.properties.map((e: CoverageRequest) => e.id)).toEqual([older.id]);
    const byCity = await api('GET', `/api/requests/covered?zip=${zip}&sort=city`);
    expect(byCity.body.properties).toHaveLength(2);
    const paged = await api('GET', `/api/requests/covered?zip=${zip}&limit=1`);
    expect(paged.body.properties.map((e: CoverageRequest) => e.id)).toEqual([newer.id]);
    const next = await api('GET', `/api/requests/covered?zip=${zip}&limit=1&cursor=${paged.body.next_cursor}`);
    expect(next.body.properties.map((e: CoverageRequest) => e.id)).toEqual([older.id]);

    // Set back from covered: it leaves the ZIP code's list too.
    await setStatus(admin, newer.id, 'in_progress');
    expect((await coveredOf(zip, 1)).map((e) => e.id)).toEqual([older.id]);
  });

  it('answers an empty list for a ZIP code without covered properties, and refuses one that is not five digits', async () => {
    const empty = await api('GET', `/api/requests/covered?zip=${freshZip()}`);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ properties: [], next_cursor: null });
    for (const zip of ['7870', '787011', 'abcde', '']) {
      const res = await api('GET', `/api/requests/covered?zip=${zip}`);
      expect(res.status, zip).toBe(400);
      expect(res.body.error, zip).toBe('zip: must be five digits, for example 78701');
    }
  });
});
