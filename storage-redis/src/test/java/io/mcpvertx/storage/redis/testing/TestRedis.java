package io.mcpvertx.storage.redis.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The Redis a test class runs against: a private {@code redis-server} started for it, or, when the environment
 * variable {@value #URL_ENV} is set, that external Redis.
 *
 * <p>Either way the test gets a key prefix of its own and must keep every key under it. On close, a private
 * server is killed with its data; on an external Redis only the keys under the prefix are deleted, never
 * anything else (no FLUSHDB, no FLUSHALL). Operations that would disturb other users of an external Redis
 * (stopping it, pausing its clients, flushing its script cache) are for private servers only; tests that need
 * them call {@link #assumePrivate()} first and are skipped otherwise.
 */
public final class TestRedis implements AutoCloseable {

  /** Points the tests at an external Redis, e.g. {@code redis://127.0.0.1:6400/0}. */
  public static final String URL_ENV = "MCP_TEST_REDIS_URL";

  private static final int ADMIN_TIMEOUT_MS = 10_000;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final RedisServerProcess server;
  private final String url;
  private final String keyPrefix;

  private TestRedis(RedisServerProcess server, String url, String keyPrefix) {
    this.server = server;
    this.url = url;
    this.keyPrefix = keyPrefix;
  }

  /** The Redis for the test class {@code owner}: external if {@value #URL_ENV} is set, else a new private one. */
  public static TestRedis start(Class<?> owner) {
    return start(owner, new String[0]);
  }

  /**
   * Like {@link #start(Class)}, a private server getting further {@code redis-server} options, such as
   * {@code --appendfsync always}. An external Redis is as its owner configured it: tests that depend on the options
   * call {@link #assumePrivate()}.
   */
  public static TestRedis start(Class<?> owner, String... serverArgs) {
    String external = System.getenv(URL_ENV);
    if (external != null && !external.isBlank()) {
      return external(external.trim(), owner);
    }
    RedisServerProcess server = RedisServerProcess.startOnFreePort(serverArgs);
    return new TestRedis(server, "redis://127.0.0.1:" + server.port(), prefix(owner));
  }

  /**
   * A private one-node Redis Cluster holding every slot, for the test class {@code owner}: enough to check that
   * every command and script keeps its keys within one slot, as a cluster demands. Skips the test class when
   * {@value #URL_ENV} is set.
   */
  public static TestRedis startCluster(Class<?> owner) {
    String external = System.getenv(URL_ENV);
    Assumptions.assumeTrue(external == null || external.isBlank(), "needs a private Redis Cluster");
    RedisServerProcess server = RedisServerProcess.startOnFreePort("--cluster-enabled", "yes");
    TestRedis redis = new TestRedis(server, "redis://127.0.0.1:" + server.port(), prefix(owner));
    redis.call("CLUSTER", "ADDSLOTSRANGE", "0", "16383");
    redis.await(() -> String.valueOf(redis.call("CLUSTER", "INFO")).contains("cluster_state:ok"), "cluster ok");
    return redis;
  }

  /** A Redis someone else runs, as {@value #URL_ENV} gives it. */
  static TestRedis external(String url, Class<?> owner) {
    return new TestRedis(null, url, prefix(owner));
  }

  private static String prefix(Class<?> owner) {
    byte[] random = new byte[4];
    RANDOM.nextBytes(random);
    return "mcptest:" + owner.getSimpleName().replaceAll("[^A-Za-z0-9]", "") + ":"
        + HexFormat.of().formatHex(random) + ":";
  }

  /** The connection string for the client under test. */
  public String url() {
    return url;
  }

  /** The prefix every key of this test class must start with; unique per start. */
  public String keyPrefix() {
    return keyPrefix;
  }

  /** Whether this Redis was started for the test and may be stopped, paused or flushed. */
  public boolean isPrivate() {
    return server != null;
  }

  /** Skips the calling test unless this Redis is private. */
  public void assumePrivate() {
    Assumptions.assumeTrue(isPrivate(), "needs a private Redis; " + URL_ENV + " points at an external one");
  }

  /** The port of the private server. */
  public int port() {
    requirePrivate();
    return server.port();
  }

  /** Stops the private server gracefully; its data stays for {@link #restart()}. */
  public void stop() {
    requirePrivate();
    server.stop();
  }

  /** Kills the private server abruptly, as a crash would. */
  public void kill() {
    requirePrivate();
    server.kill();
  }

  /** Freezes the private server (SIGSTOP): it keeps its connections and answers nothing until {@link #resume()}. */
  public void pause() {
    requirePrivate();
    server.signal("STOP");
  }

  /** Lets a {@linkplain #pause() frozen} server run again (SIGCONT): it serves what queued meanwhile. */
  public void resume() {
    requirePrivate();
    server.signal("CONT");
  }

  /** Starts the stopped private server again, on the same port, and waits until it answers. */
  public void restart() {
    requirePrivate();
    server.start();
  }

  /**
   * Starts a replica of this private server, on a port of its own, and waits until it is in sync. It shares
   * this server's key prefix; closing it kills it.
   */
  public TestRedis startReplica() {
    requirePrivate();
    // The master otherwise waits 5 s for more replicas before a full sync.
    call("CONFIG", "SET", "repl-diskless-sync-delay", "0");
    RedisServerProcess replica = RedisServerProcess.startOnFreePort("--replicaof", "127.0.0.1",
        Integer.toString(server.port()));
    TestRedis started = new TestRedis(replica, "redis://127.0.0.1:" + replica.port(), keyPrefix);
    started.await(() -> String.valueOf(started.call("INFO", "replication")).contains("master_link_status:up"),
        "replica in sync");
    return started;
  }

  /**
   * Starts a sentinel that monitors this private server as master {@code masterName}, and waits until it
   * reports the master. Its {@link #url()} is the sentinel's; closing it kills it.
   */
  public TestRedis startSentinel(String masterName) {
    return startSentinel(masterName, "");
  }

  /**
   * {@link #startSentinel(String)} that fails the master over to a replica once it has not answered for
   * {@code downAfterMs}.
   */
  public TestRedis startSentinel(String masterName, long downAfterMs) {
    return startSentinel(masterName, "sentinel down-after-milliseconds " + masterName + " " + downAfterMs + "\n"
        + "sentinel failover-timeout " + masterName + " " + 10 * downAfterMs + "\n");
  }

  private TestRedis startSentinel(String masterName, String moreConfig) {
    requirePrivate();
    RedisServerProcess sentinel = RedisServerProcess.startSentinelOnFreePort(
        "sentinel monitor " + masterName + " 127.0.0.1 " + server.port() + " 1\n" + moreConfig);
    TestRedis started = new TestRedis(sentinel, "redis://127.0.0.1:" + sentinel.port(), keyPrefix);
    started.await(() -> String.valueOf(started.call("SENTINEL", "GET-MASTER-ADDR-BY-NAME", masterName))
        .contains(Integer.toString(server.port())), "sentinel knows the master");
    return started;
  }

  private void await(java.util.function.BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        close();
        throw new IllegalStateException("not in time: " + what);
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  /** Runs one command on a short-lived admin connection and returns its reply (see {@link RespConnection}). */
  public Object call(String... args) {
    try (RespConnection connection = RespConnection.open(url, ADMIN_TIMEOUT_MS)) {
      return connection.call(args);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The keys under this test's prefix, found with SCAN. */
  public List<String> keys() {
    List<String> keys = new ArrayList<>();
    try (RespConnection connection = RespConnection.open(url, ADMIN_TIMEOUT_MS)) {
      scan(connection, keys::addAll);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return keys;
  }

  @Override
  public void close() {
    if (server != null) {
      server.destroy();
      return;
    }
    try (RespConnection connection = RespConnection.open(url, ADMIN_TIMEOUT_MS)) {
      scan(connection, batch -> {
        if (!batch.isEmpty()) {
          List<String> args = new ArrayList<>(batch.size() + 1);
          args.add("UNLINK");
          args.addAll(batch);
          connection.call(args.toArray(String[]::new));
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private interface Batch {
    void accept(List<String> keys) throws IOException;
  }

  /** The prefix holds only letters, digits and colons, so it needs no escaping in a MATCH pattern. */
  @SuppressWarnings("unchecked")
  private void scan(RespConnection connection, Batch batch) throws IOException {
    String cursor = "0";
    do {
      List<Object> reply = (List<Object>) connection.call("SCAN", cursor, "MATCH", keyPrefix + "*", "COUNT", "1000");
      cursor = (String) reply.get(0);
      List<String> keys = new ArrayList<>();
      ((List<Object>) reply.get(1)).forEach(k -> keys.add((String) k));
      batch.accept(keys);
    } while (!"0".equals(cursor));
  }

  private void requirePrivate() {
    if (server == null) {
      throw new IllegalStateException("only a private Redis can be stopped or restarted; " + URL_ENV + " is set");
    }
  }
}
