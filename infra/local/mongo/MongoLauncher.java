import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.h2.CompactH2;

/**
 * The local MongoDB-protocol server: mongo-java-server over one H2 MVStore file, with unique
 * indexes that compare keys directly and a storage form without Java serialization (CompactH2).
 * Usage: java -cp 'libs/*:.' MongoLauncher <data file> <host> <port>
 * A shutdown hook (SIGTERM, Ctrl-C) closes the store so the last writes reach the file.
 */
public final class MongoLauncher {
  public static void main(String[] args) {
    if (args.length != 3) {
      System.err.println("usage: MongoLauncher <data file> <host> <port>");
      System.exit(2);
    }
    MongoServer server = new MongoServer(CompactH2.open(args[0]));
    Runtime.getRuntime().addShutdownHook(new Thread(server::shutdown, "mongo-shutdown"));
    server.bind(args[1], Integer.parseInt(args[2]));
    System.out.println("mongo-java-server listening on " + args[1] + ":" + args[2] + ", data in " + args[0]);
  }
}
