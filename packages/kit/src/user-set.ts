import { type TSchema, Type } from '@sinclair/typebox';
import type { Collection, Document, Filter, UpdateFilter } from 'mongodb';
import { isDuplicateKey } from './duplicate-keys.js';
import { ErrorReply, conflict } from './errors.js';

/** How many values a user may keep, and what a refused add (409) says to them. */
export interface UserSetLimit {
  max: number;
  full: string;
}

/**
 * A user's small set of ids (saved reports, watched ZIP codes): one document per user, `_id` the
 * user id, the values in one array field, oldest first. Every call reads and writes by `_id` alone
 * (the embedded server scans for anything else), and `$addToSet` keeps each value once,
 * atomically: two racing adds of one value store it once. The set is bounded, so one read answers
 * it: an add past `limit.max` is refused with a 409. That check reads first, so adds of different
 * values racing at the edge can pass it together; the bound is for size, not an invariant.
 */
export class UserSet {
  constructor(
    private readonly docs: Collection<Document>,
    private readonly field: string,
    private readonly limit: UserSetLimit,
  ) {}

  async list(userId: string): Promise<string[]> {
    const doc = await this.docs.findOne(this.byUser(userId), { projection: { [this.field]: 1 } });
    return (doc?.[this.field] as string[] | undefined) ?? [];
  }

  /**
   * Adds `value` at the end unless it is there; a value already there never counts against the
   * limit. `also` are fields kept beside the set (written on every add, present or not, so they
   * follow the user's latest state); without them, adding a present value writes nothing.
   */
  async add(userId: string, value: string, also?: Document): Promise<void> {
    const values = await this.list(userId);
    const present = values.includes(value);
    if (present && !also) return;
    if (!present && values.length >= this.limit.max) throw conflict(this.limit.full);
    const update: UpdateFilter<Document> = { $addToSet: { [this.field]: value } };
    if (also) update.$set = also;
    try {
      await this.docs.updateOne(this.byUser(userId), update, { upsert: true });
    } catch (err) {
      // Two first adds at once: the other created the document; add to it.
      if (!isDuplicateKey(err)) throw err;
      await this.docs.updateOne(this.byUser(userId), update);
    }
  }

  /** True when the value was in the set. */
  async remove(userId: string, value: string): Promise<boolean> {
    // A computed key widens to an index signature the driver's $pull type does not take.
    const pull = { $pull: { [this.field]: value } } as UpdateFilter<Document>;
    const res = await this.docs.updateOne(this.byUser(userId), pull);
    return res.modifiedCount > 0;
  }

  /** Account deleted: the whole document goes. */
  async forget(userId: string): Promise<void> {
    await this.docs.deleteOne(this.byUser(userId));
  }

  private byUser(userId: string): Filter<Document> {
    return { _id: userId as never };
  }
}

/**
 * The route options of a user's set under /api/users, for the signed-in user only: list it (200),
 * add (PUT) and remove (DELETE) one value by path parameter, both 204 and idempotent; an add can
 * also answer 409. `summaries` name the three operations for the OpenAPI document.
 */
export function userSetSchemas<Params extends TSchema, ListReply extends TSchema>(
  params: Params,
  listReply: ListReply,
  summaries: { list: string; add: string; remove: string },
) {
  const tags = ['users'];
  const config = { auth: 'user' } as const;
  const response = {
    // 204 carries no body (Fastify sends none); named for the OpenAPI document.
    204: Type.Null({ description: 'Done; doing it again changes nothing.' }),
    400: ErrorReply,
    404: ErrorReply,
  };
  return {
    list: { config, schema: { tags, summary: summaries.list, response: { 200: listReply } } },
    add: { config, schema: { tags, summary: summaries.add, params, response: { ...response, 409: ErrorReply } } },
    remove: { config, schema: { tags, summary: summaries.remove, params, response } },
  };
}
