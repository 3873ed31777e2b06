package de.bwaldvogel.mongo.backend.h2;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import org.h2.mvstore.MVMap;
import org.h2.mvstore.DataUtils;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.ObjectDataType;

import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.backend.Missing;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.bson.ObjectId;
import de.bwaldvogel.mongo.wire.bson.BsonDecoder;
import de.bwaldvogel.mongo.wire.bson.BsonEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * mongo-java-server's H2 backend with unique indexes that compare their keys directly and store
 * them compactly (KeyType), and documents stored as BSON (DocumentType).
 *
 * Stock H2 keeps an index key (a KeyValue, which is not Comparable) in an MVMap whose key type
 * orders such objects by their Java-serialized bytes: every step of every index lookup serializes
 * two keys with a fresh ObjectOutputStream. Profiled under the lead webhook's inserts, that was
 * 83% of the server's CPU (docs/decisions/005). Here the keys are ordered element by element
 * instead. Which order the map uses does not matter to mongo-java-server (it only looks keys up
 * and walks entries), but keys equal before must be equal now, and a map must be read in the
 * order it was written: the on-disk format is unchanged, and index maps written by the stock
 * order are re-sorted once when a data file is first opened here (see {@link #open}).
 *
 * It lives in mongo-java-server's package because H2UniqueIndex's constructor is package-private.
 */
public final class CompactH2 {
  private CompactH2() {}

  /** Stamp in the data file: its index maps are ordered by {@link KeyType}. */
  private static final String STAMP_MAP = "homereport.launcher";
  private static final String STAMP_KEY = "index-key-order";
  private static final String STAMP_VALUE = "element-wise-1";
  private static final String INDEX_MAP_MARK = "._index_";

  /** The one store of this process, for index maps opened while a database is constructed. */
  private static volatile MVStore store;

  /** Opens the data file and returns a backend whose unique indexes use {@link KeyType}. */
  public static H2Backend open(String fileName) {
    MVStore mvStore = MVStore.open(fileName);
    resortIndexMaps(mvStore);
    store = mvStore;
    return new Backend(mvStore);
  }

  private static MVMap.Builder<KeyValue, Object> indexMapBuilder() {
    return new MVMap.Builder<KeyValue, Object>().keyType(new KeyType());
  }

  /** Index maps written in the stock order are read out and written again in ours, once. */
  private static void resortIndexMaps(MVStore mvStore) {
    MVMap<String, String> stamp = mvStore.openMap(STAMP_MAP);
    if (STAMP_VALUE.equals(stamp.get(STAMP_KEY))) return;
    for (String name : new ArrayList<>(mvStore.getMapNames())) {
      if (!name.contains(INDEX_MAP_MARK)) continue;
      MVMap<Object, Object> stock = mvStore.openMap(name);
      List<Map.Entry<Object, Object>> entries = new ArrayList<>();
      // Walking a map follows its pages; it needs no comparison, so the stock order is harmless here.
      for (Map.Entry<Object, Object> e : stock.entrySet()) entries.add(Map.entry(e.getKey(), e.getValue()));
      mvStore.removeMap(stock);
      MVMap<KeyValue, Object> resorted = mvStore.openMap(name, indexMapBuilder());
      for (Map.Entry<Object, Object> e : entries) resorted.put((KeyValue) e.getKey(), e.getValue());
      System.out.println("re-sorted index " + name + " (" + entries.size() + " keys)");
    }
    stamp.put(STAMP_KEY, STAMP_VALUE);
    mvStore.commit();
  }

  private static final class Backend extends H2Backend {
    Backend(MVStore mvStore) {
      super(mvStore);
    }

    @Override
    protected MongoDatabase openOrCreateDatabase(String databaseName) {
      return new Database(databaseName, getMvStore(), getCursorRegistry());
    }
  }

  private static final class Database extends H2Database {
    private final CursorRegistry cursors;

    Database(String databaseName, MVStore mvStore, CursorRegistry cursors) {
      super(databaseName, mvStore, cursors);
      this.cursors = cursors;
    }

    @Override
    protected MongoCollection<Object> openOrCreateCollection(String collectionName, CollectionOptions options) {
      // The stock H2Database's map names, with documents stored by DocumentType.
      String namespace = getFullCollectionNamespace(collectionName);
      MVMap<Object, Document> dataMap =
          store.openMap("databases." + namespace, new MVMap.Builder<Object, Document>().valueType(new DocumentType()));
      MVMap<String, Object> metaMap = store.openMap("meta." + namespace);
      return new H2Collection(this, collectionName, options, dataMap, metaMap, cursors);
    }

    @Override
    protected Index<Object> openOrCreateUniqueIndex(String collectionName, String indexName, List<IndexKey> keys, boolean sparse) {
      // The same map name as the stock H2Database (dropIndex removes it by that name).
      String mapName = getFullCollectionNamespace(collectionName) + INDEX_MAP_MARK + indexName;
      MVMap<KeyValue, Object> map = store.openMap(mapName, indexMapBuilder());
      return new H2UniqueIndex(map, indexName, keys, sparse);
    }
  }

  /**
   * Orders KeyValues by size, then element by element: values of one class by their natural order
   * where that order agrees with equals (so equal keys stay exactly the keys that were equal), any
   * other value by the stock order (serialized bytes), and values of different classes by class
   * name. Anything that is not a KeyValue keeps the stock order.
   */
  static final class KeyType extends ObjectDataType {
    /*
     * Tags of the compact key encoding, above every tag ObjectDataType writes (it uses up to 119),
     * so each stored key says how it was written: keys written by the stock serialization (older
     * data files, or a key holding a value this encoding leaves to it) are still read by it.
     */
    private static final byte TAG_KEY = 120;
    private static final byte TAG_OBJECT_ID = 121;
    private static final byte TAG_INSTANT = 122;
    private static final byte TAG_MISSING = 123;

    /**
     * Index keys are written element by element instead of by Java serialization. Every store of
     * a changed page writes each of its keys again; with ObjectOutputStream that was the largest
     * part of the server's CPU under the lead webhook (docs/decisions/005). Elements come back as
     * equal objects of the same class, so lookups and the order above are unchanged.
     */
    @Override
    public void write(WriteBuffer buff, Object obj) {
      if (obj instanceof KeyValue && isCompact((KeyValue) obj)) {
        KeyValue key = (KeyValue) obj;
        buff.put(TAG_KEY).putVarInt(key.size());
        for (Object element : key) writeElement(buff, element);
        return;
      }
      super.write(buff, obj);
    }

    @Override
    public Object read(ByteBuffer buff) {
      if (buff.get(buff.position()) != TAG_KEY) return super.read(buff);
      buff.get();
      Object[] elements = new Object[DataUtils.readVarInt(buff)];
      for (int i = 0; i < elements.length; i++) elements[i] = readElement(buff);
      return new KeyValue(elements);
    }

    /**
     * What a key weighs in the page cache and against the page split size. The stock type's guess
     * for a serialized object is its running average serialized size, which only its own writes
     * update: left alone it stays at its start (10 KB), and pages split after a key or two.
     */
    @Override
    public int getMemory(Object obj) {
      if (!(obj instanceof KeyValue) || !isCompact((KeyValue) obj)) return super.getMemory(obj);
      int memory = 32;
      for (Object element : (KeyValue) obj) {
        memory += element instanceof String ? 40 + 2 * ((String) element).length() : 24;
      }
      return memory;
    }

    private static boolean isCompact(KeyValue key) {
      for (Object e : key) {
        if (!(e == null || e instanceof String || e instanceof Integer || e instanceof Long
            || e instanceof Double || e instanceof Boolean || e instanceof java.util.Date
            || e instanceof java.util.UUID || e instanceof ObjectId || e instanceof Instant
            || e instanceof Missing)) {
          return false;
        }
      }
      return true;
    }

    private void writeElement(WriteBuffer buff, Object element) {
      if (element instanceof ObjectId) {
        buff.put(TAG_OBJECT_ID).put(((ObjectId) element).toByteArray());
      } else if (element instanceof Instant) {
        Instant at = (Instant) element;
        buff.put(TAG_INSTANT).putLong(at.getEpochSecond()).putInt(at.getNano());
      } else if (element instanceof Missing) {
        buff.put(TAG_MISSING);
      } else {
        super.write(buff, element); // null, String, numbers, Boolean, Date, UUID: its own compact forms
      }
    }

    private Object readElement(ByteBuffer buff) {
      switch (buff.get(buff.position())) {
        case TAG_OBJECT_ID: {
          buff.get();
          byte[] bytes = new byte[12];
          buff.get(bytes);
          return new ObjectId(bytes);
        }
        case TAG_INSTANT:
          buff.get();
          return Instant.ofEpochSecond(buff.getLong(), buff.getInt());
        case TAG_MISSING:
          buff.get();
          return Missing.getInstance();
        default:
          return super.read(buff);
      }
    }

    @Override
    public int compare(Object a, Object b) {
      if (a instanceof KeyValue && b instanceof KeyValue) {
        KeyValue x = (KeyValue) a;
        KeyValue y = (KeyValue) b;
        if (x.size() != y.size()) return Integer.compare(x.size(), y.size());
        for (int i = 0; i < x.size(); i++) {
          int c = compareValues(x.get(i), y.get(i));
          if (c != 0) return c;
        }
        return 0;
      }
      return super.compare(a, b);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private int compareValues(Object a, Object b) {
      if (a == b) return 0;
      if (a == null) return -1;
      if (b == null) return 1;
      Class<?> ca = a.getClass();
      Class<?> cb = b.getClass();
      if (ca != cb) return ca.getName().compareTo(cb.getName());
      if (a instanceof String || a instanceof Integer || a instanceof Long || a instanceof Boolean
          || a instanceof Double || a instanceof java.util.Date || a instanceof java.time.Instant
          || a instanceof java.util.UUID || a instanceof de.bwaldvogel.mongo.bson.ObjectId) {
        return ((Comparable) a).compareTo(b);
      }
      return super.compare(a, b);
    }
  }

  /**
   * Stores documents as BSON (the form they arrive and leave in) instead of by Java serialization:
   * H2 writes each changed page again at every store, every document in it, and read back every
   * page its cache misses. Tagged like the compact keys (124), so documents written before are
   * read by the stock serialization until their page is next written.
   */
  static final class DocumentType extends ObjectDataType {
    private static final byte TAG_BSON = 124;

    @Override
    public void write(WriteBuffer buff, Object obj) {
      if (obj instanceof Document) {
        ByteBuf bson = Unpooled.buffer(256);
        try {
          BsonEncoder.encodeDocument((Document) obj, bson);
          buff.put(TAG_BSON).putVarInt(bson.readableBytes()).put(bson.nioBuffer());
          return;
        } catch (RuntimeException notBson) {
          // A value BSON cannot hold: the stock form keeps it.
        } finally {
          bson.release();
        }
      }
      super.write(buff, obj);
    }

    @Override
    public Object read(ByteBuffer buff) {
      if (buff.get(buff.position()) != TAG_BSON) return super.read(buff);
      buff.get();
      byte[] bytes = new byte[DataUtils.readVarInt(buff)];
      buff.get(bytes);
      return BsonDecoder.decodeBson(Unpooled.wrappedBuffer(bytes));
    }

    /** A document's weight for the page cache and page splits (see KeyType.getMemory). */
    @Override
    public int getMemory(Object obj) {
      return obj instanceof Document ? weight(obj) : super.getMemory(obj);
    }

    private static int weight(Object value) {
      if (value instanceof String) return 40 + 2 * ((String) value).length();
      if (value instanceof Map) {
        int memory = 48;
        for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
          memory += 40 + 2 * String.valueOf(e.getKey()).length() + weight(e.getValue());
        }
        return memory;
      }
      if (value instanceof Collection) {
        int memory = 32;
        for (Object element : (Collection<?>) value) memory += 8 + weight(element);
        return memory;
      }
      return 24;
    }
  }
}
