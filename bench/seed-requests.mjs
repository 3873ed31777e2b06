// Seeds the requests database for the benchmarks, in the service's own shapes (bench:requests,
// bench:gateway, bench:properties): every other request covered, one report view each, and the
// requests' properties (one per request unless `propertyOf` groups them) with the public search's
// posting lists of the covered ones.
import { randomUUID } from 'node:crypto';
import { ObjectId } from 'mongodb';

const DAY = 24 * 3600 * 1000;

/**
 * The public search's terms of an address, as services/requests/src/domain/search-terms.ts files
 * them (every beginning of every word, up to 24 characters); bench:gateway runs without tsx, so
 * this plain copy is the default and bench:properties passes the service's own.
 */
function prefixTermsCopy(address) {
  const words = address
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0 && w.length <= 64);
  return [
    ...new Set(words.flatMap((w) => Array.from({ length: Math.min(w.length, 24) }, (_, i) => w.slice(0, i + 1)))),
  ];
}

const POSTING_RANGE = 1000;

/**
 * Seeds requests (every other one covered) and views up to `size` of each, in the service's own
 * shapes. `propertyOf(i)` names the property of request i (non-decreasing in i), `addressOf(i, k)`
 * its address; `keyOf` and `termsOf` are the service's normalisation and search terms.
 */
export async function seedRequests(
  db,
  size,
  {
    propertyOf = (i) => i,
    addressOf = (i) => `${i} Bench Street, Springfield, IL`,
    keyOf = (address) => `bench|${address.toLowerCase()}`,
    termsOf = prefixTermsCopy,
  } = {},
) {
  const requests = db.collection('requests');
  const have = await requests.estimatedDocumentCount();
  const counters = db.collection('counters');
  const coveredBefore = (await counters.findOne({ _id: 'covered' }))?.value ?? 0;
  let covered = coveredBefore;
  let place = (await counters.findOne({ _id: 'covered-properties' }))?.value ?? 0;
  const propertiesBefore = await db.collection('properties').estimatedDocumentCount();
  const batch = 2000;
  const now = Date.now();
  const coveredIds = [];
  for (let from = have; from < size; from += batch) {
    const to = Math.min(size, from + batch);
    const docs = [];
    const views = [];
    const properties = new Map();
    const postings = new Map();
    const firsts = [];
    for (let i = from; i < to; i++) {
      const id = new ObjectId().toHexString();
      const k = propertyOf(i);
      const address = addressOf(i, k);
      const isCovered = i % 2 === 0;
      const created = new Date(now - (size - i) * 60_000);
      const propertyId = `bench-property-${k}`;
      let property = properties.get(propertyId);
      if (!property) {
        property = { key: keyOf(address), address, created_at: created, requests: [], cover: null };
        properties.set(propertyId, property);
      }
      property.requests.push({ id, user: null, at: created });
      // The property's first covered request covers it (the requests of one property are consecutive).
      if (isCovered && (i < 2 || propertyOf(i - 2) !== k) && property.cover === null) {
        place += 1;
        property.cover = { report: id, coveredSeq: place, city_order: address.toLowerCase() };
        for (const term of termsOf(address)) {
          const postingId = `${term}#${Math.floor(place / POSTING_RANGE)}`;
          postings.set(postingId, [...(postings.get(postingId) ?? []), place]);
        }
      }
      const doc = {
        _id: id,
        seq: i + 1,
        address,
        property_id: propertyId,
        addressKey: property.key,
        url: `https://listing.example/${i}`,
        notes: i % 3 === 0 ? 'Seeded for the benchmark.' : null,
        status: isCovered ? 'covered' : 'requested',
        created_at: created,
        updated_at: created,
        completed_at: isCovered ? created : null,
        requester: null,
        files: isCovered
          ? {
              report: {
                key: `${id}/report-seeded`,
                name: 'report.pdf',
                contentType: 'application/pdf',
                size: 1,
                uploaded_at: created,
              },
            }
          : {},
        status_history: [],
        pending: [],
        outbox: [],
      };
      if (isCovered) {
        covered += 1;
        coveredIds.push(id);
      }
      docs.push(doc);
      // One view per request, by seeded users of 10 views each.
      const viewId = randomUUID();
      const userId = `seed-user-${Math.floor(i / 10)}`;
      views.push({ _id: viewId, userId, requestId: id, address, at: created, charged: true, outbox: [] });
      firsts.push({ _id: `${userId}:${id}`, firstViewId: viewId, firstAt: created });
    }
    await requests.insertMany(docs, { ordered: false });
    // A property may have begun in the previous batch: upserts.
    await db.collection('properties').bulkWrite(
      [...properties].map(([_id, p]) => ({
        updateOne: {
          filter: { _id },
          update: {
            $setOnInsert: { key: p.key, address: p.address, created_at: p.created_at },
            $push: { requests: { $each: p.requests } },
            ...(p.cover ? { $set: p.cover } : {}),
          },
          upsert: true,
        },
      })),
      { ordered: false },
    );
    if (postings.size > 0) {
      await db.collection('covered_postings').bulkWrite(
        [...postings].map(([_id, seqs]) => ({
          updateOne: { filter: { _id }, update: { $addToSet: { seqs: { $each: seqs } } }, upsert: true },
        })),
        { ordered: false },
      );
    }
    await db.collection('access_log').insertMany(views, { ordered: false });
    await db.collection('user_reports').insertMany(firsts, { ordered: false });
    const users = [];
    const periods = [];
    for (let u = Math.ceil(from / 10); u < Math.ceil(to / 10); u++) {
      const userViews = views.filter((v) => v.userId === `seed-user-${u}`);
      users.push({
        _id: `seed-user-${u}`,
        anchor: new Date(now - 5 * DAY),
        totalAccess: userViews.length,
        uniqueReports: userViews.length,
        history: userViews.map((v) => ({ id: v._id, request_id: v.requestId, address: v.address, accessed_at: v.at })),
        requests: [],
      });
      periods.push({
        _id: `seed-user-${u}:0`,
        userId: `seed-user-${u}`,
        index: 0,
        credits: 10 - userViews.length,
        opened: userViews.map((v) => v.requestId),
      });
    }
    await db
      .collection('user_activity')
      .insertMany(users, { ordered: false })
      .catch(() => {});
    await db
      .collection('credit_periods')
      .insertMany(periods, { ordered: false })
      .catch(() => {});
  }
  await counters.updateOne({ _id: 'requests' }, { $set: { value: size } }, { upsert: true });
  await counters.updateOne({ _id: 'covered' }, { $set: { value: covered } }, { upsert: true });
  await counters.updateOne({ _id: 'covered-properties' }, { $set: { value: place } }, { upsert: true });
  const propertiesAdded = (await db.collection('properties').estimatedDocumentCount()) - propertiesBefore;
  const added = size - have;
  await db.collection('stats').updateOne(
    { _id: 'requests' },
    {
      $inc: {
        total: added,
        requested: added - (covered - coveredBefore),
        covered: covered - coveredBefore,
        totalAccess: added,
        properties: propertiesAdded,
      },
    },
    { upsert: true },
  );
  return coveredIds;
}
