// Seeds the requests database for the benchmarks, in the service's own shapes (bench:requests,
// bench:gateway): every other request covered, one report view each.
import { randomUUID } from 'node:crypto';
import { ObjectId } from 'mongodb';

const DAY = 24 * 3600 * 1000;

/** Seeds requests (every other one covered) and views up to `size` of each, in the service's own shapes. */
export async function seedRequests(db, size) {
  const requests = db.collection('requests');
  const have = await requests.estimatedDocumentCount();
  const counters = db.collection('counters');
  const coveredBefore = (await counters.findOne({ _id: 'covered' }))?.value ?? 0;
  let covered = coveredBefore;
  const batch = 2000;
  const now = Date.now();
  const coveredIds = [];
  for (let from = have; from < size; from += batch) {
    const to = Math.min(size, from + batch);
    const docs = [];
    const addresses = [];
    const views = [];
    const firsts = [];
    for (let i = from; i < to; i++) {
      const id = new ObjectId().toHexString();
      const address = `${i} Bench Street, Springfield, IL`;
      const isCovered = i % 2 === 0;
      const created = new Date(now - (size - i) * 60_000);
      const doc = {
        _id: id,
        seq: i + 1,
        address,
        addressKey: address.toLowerCase(),
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
        doc.coveredSeq = covered;
        coveredIds.push(id);
      }
      docs.push(doc);
      addresses.push({ _id: doc.addressKey, last: `${created.toISOString()}|${id}` });
      // One view per request, by seeded users of 10 views each.
      const viewId = randomUUID();
      const userId = `seed-user-${Math.floor(i / 10)}`;
      views.push({ _id: viewId, userId, requestId: id, address, at: created, charged: true, outbox: [] });
      firsts.push({ _id: `${userId}:${id}`, firstViewId: viewId, firstAt: created });
    }
    await requests.insertMany(docs, { ordered: false });
    await db.collection('address_index').insertMany(addresses, { ordered: false });
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
  const added = size - have;
  await db.collection('stats').updateOne(
    { _id: 'requests' },
    {
      $inc: {
        total: added,
        requested: added - (covered - coveredBefore),
        covered: covered - coveredBefore,
        totalAccess: added,
      },
    },
    { upsert: true },
  );
  return coveredIds;
}
