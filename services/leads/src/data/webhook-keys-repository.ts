import { isDuplicateKey } from '@homereport/kit';
import type { Collection, Db } from 'mongodb';
import type { StoredKey, WebhookKeyStore } from '../domain/ports.js';

interface KeyDoc {
  /** The key name: its identifier, unique by construction. */
  _id: string;
  /** SHA-256 (hex) of the secret; the secret itself is never stored. */
  keyHash: string;
  created_at: Date;
  last_used: Date | null;
  is_active: boolean;
}

const toStored = (d: KeyDoc): StoredKey => ({
  key_name: d._id,
  keyHash: d.keyHash,
  created_at: d.created_at,
  last_used: d.last_used ?? null,
  is_active: d.is_active,
});

/** Most keys an admin list shows; one key per ad source, so a few dozen in practice. */
const LIST_MAX = 1000;

export class WebhookKeysRepository implements WebhookKeyStore {
  private readonly keys: Collection<KeyDoc>;

  constructor(db: Db) {
    this.keys = db.collection<KeyDoc>('webhook_keys');
  }

  async create(key: { key_name: string; keyHash: string; created_at: Date }): Promise<'created' | 'taken'> {
    try {
      await this.keys.insertOne({
        _id: key.key_name,
        keyHash: key.keyHash,
        created_at: key.created_at,
        last_used: null,
        is_active: true,
      });
      return 'created';
    } catch (err) {
      if (isDuplicateKey(err)) return 'taken';
      throw err;
    }
  }

  async list(): Promise<StoredKey[]> {
    // The whole (small) collection, newest first: an admin screen, not a request path that grows with leads.
    const docs = await this.keys.find({}).limit(LIST_MAX).toArray();
    return docs.map(toStored).sort((a, b) => b.created_at.getTime() - a.created_at.getTime());
  }

  async findByHash(keyHash: string): Promise<StoredKey | null> {
    const doc = await this.keys.findOne({ keyHash });
    return doc ? toStored(doc) : null;
  }

  async findByName(keyName: string): Promise<StoredKey | null> {
    const doc = await this.keys.findOne({ _id: keyName });
    return doc ? toStored(doc) : null;
  }

  async toggle(keyName: string): Promise<StoredKey | null> {
    // Read, then flip only if nobody flipped in between (findOneAndUpdate on _id + the old value:
    // atomic; index id_active_unique). A lost race reads again, so two concurrent toggles flip
    // twice, never once or zero times.
    for (let attempt = 0; attempt < 20; attempt++) {
      const current = await this.keys.findOne({ _id: keyName });
      if (!current) return null;
      const before = await this.keys.findOneAndUpdate(
        { _id: keyName, is_active: current.is_active },
        { $set: { is_active: !current.is_active } },
        { returnDocument: 'before' },
      );
      if (before) return toStored({ ...before, is_active: !before.is_active });
    }
    throw new Error(`webhook key toggle kept losing races: ${keyName}`);
  }

  async touch(keyName: string, at: Date): Promise<void> {
    await this.keys.updateOne({ _id: keyName }, { $max: { last_used: at } });
  }
}
