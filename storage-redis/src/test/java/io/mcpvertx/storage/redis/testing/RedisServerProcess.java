package io.mcpvertx.storage.redis.testing;

import io.mcpvertx.testing.Prerequisites;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One private {@code redis-server} process on a loopback port of its own, with its own data directory. It can be
 * stopped and started again on the same port, keeping its data (append-only file, written on graceful stop), so
 * tests can stage an outage and a recovery.
 *
 * <p>The binary is the one bundled by {@code org.signal:embedded-redis} for this platform, extracted once per JVM;
 * failing that, {@code redis-server} from the {@code PATH}; with neither, the tests are skipped saying so (they fail
 * under {@code CI=true}). Every process still running when the JVM exits is
 * killed by a shutdown hook, so a failed test run leaves no server behind.
 */
final class RedisServerProcess {

  private static final String BUNDLED_VERSION = "7.0.15";
  private static final long READY_TIMEOUT_MS = 15_000;
  private static final long STOP_TIMEOUT_MS = 10_000;
  private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();
  private static volatile Path binary;

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(Process::destroyForcibly),
        "test-redis-reaper"));
  }

  private final int port;
  private final Path dir;
  private final List<String> extraArgs;
  /** The configuration of a sentinel, which runs from a file it may rewrite; null for a data server. */
  private final String sentinelConfig;
  private Process process;

  private RedisServerProcess(int port, Path dir, List<String> extraArgs, String sentinelConfig) {
    this.port = port;
    this.dir = dir;
    this.extraArgs = List.copyOf(extraArgs);
    this.sentinelConfig = sentinelConfig;
  }

  /**
   * Starts a server on a free port (never 6379), retrying on another port if the chosen one was taken meanwhile.
   * {@code extraArgs} are further {@code redis-server} options, such as {@code --replicaof host port}.
   */
  static RedisServerProcess startOnFreePort(String... extraArgs) {
    return launch(null, extraArgs);
  }

  /** Starts a sentinel with the given configuration lines on a free port. */
  static RedisServerProcess startSentinelOnFreePort(String config) {
    return launch(config);
  }

  private static RedisServerProcess launch(String sentinelConfig, String... extraArgs) {
    IllegalStateException last = null;
    for (int attempt = 0; attempt < 5; attempt++) {
      Path dir;
      try {
        dir = Files.createTempDirectory("mcp-test-redis-");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      RedisServerProcess server = new RedisServerProcess(freePort(), dir, List.of(extraArgs), sentinelConfig);
      try {
        server.start();
        return server;
      } catch (IllegalStateException e) {
        last = e;
        server.destroy();
      }
    }
    throw last;
  }

  int port() {
    return port;
  }

  boolean isRunning() {
    return process != null && process.isAlive();
  }

  /** Starts the server on its port and waits until it answers PING. */
  synchronized void start() {
    if (isRunning()) {
      throw new IllegalStateException("redis-server already running on port " + port);
    }
    List<String> command = new ArrayList<>(List.of(binary().toString()));
    if (sentinelConfig != null) {
      Path config = dir.resolve("sentinel.conf");
      try {
        if (!Files.exists(config)) {
          Files.writeString(config, sentinelConfig, StandardCharsets.UTF_8);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      command.addAll(List.of(config.toString(), "--sentinel"));
    }
    command.addAll(List.of("--port", Integer.toString(port), "--bind", "127.0.0.1", "--protected-mode", "no",
        "--dir", dir.toString(), "--daemonize", "no", "--loglevel", "warning", "--logfile", ""));
    if (sentinelConfig == null) {
      command.addAll(List.of("--save", "", "--appendonly", "yes", "--appendfsync", "everysec"));
    }
    command.addAll(extraArgs);
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("redis.log").toFile()));
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new IllegalStateException("cannot launch " + command.get(0), e);
    }
    LIVE.add(process);
    awaitReady();
  }

  /** Stops the server gracefully (SIGTERM: it writes its data out first) and waits until it is gone. */
  synchronized void stop() {
    end(false);
  }

  /**
   * Sends the server a signal with {@code kill}: {@code STOP} freezes it as a stalled host would (connections
   * stay open, commands queue in their buffers and run once it gets {@code CONT}).
   */
  synchronized void signal(String name) {
    Process p = process;
    if (p == null) {
      throw new IllegalStateException("redis-server on port " + port + " is not running");
    }
    try {
      Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(p.pid())).redirectErrorStream(true).start();
      if (!kill.waitFor(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS) || kill.exitValue() != 0) {
        throw new IllegalStateException("kill -" + name + " " + p.pid() + " failed");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Kills the server abruptly (SIGKILL), as a crash would. */
  synchronized void kill() {
    end(true);
  }

  /** Kills the server and deletes its data directory. */
  synchronized void destroy() {
    end(true);
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // A leftover temporary directory is harmless.
    }
  }

  private void end(boolean force) {
    Process p = process;
    if (p == null) {
      return;
    }
    try {
      if (force) {
        p.destroyForcibly();
      } else {
        p.destroy();
      }
      if (!p.waitFor(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
        p.destroyForcibly().waitFor(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
    } finally {
      LIVE.remove(p);
      process = null;
    }
  }

  private void awaitReady() {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(READY_TIMEOUT_MS);
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        LIVE.remove(process);
        process = null;
        throw new IllegalStateException("redis-server on port " + port + " exited: " + log());
      }
      try (RespConnection connection = RespConnection.open("redis://127.0.0.1:" + port, 500)) {
        if ("PONG".equals(connection.call("PING"))) {
          return;
        }
      } catch (IOException | RespConnection.ErrorReply e) {
        // Not listening yet, or still loading its data: try again shortly.
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    end(true);
    throw new IllegalStateException("redis-server on port " + port + " not ready in time: " + log());
  }

  private String log() {
    try {
      String log = Files.readString(dir.resolve("redis.log"), StandardCharsets.UTF_8);
      return log.length() > 2000 ? log.substring(log.length() - 2000) : log;
    } catch (IOException e) {
      return "(no log)";
    }
  }

  private static int freePort() {
    for (int attempt = 0; attempt < 20; attempt++) {
      try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        int port = socket.getLocalPort();
        if (port != 6379) {
          return port;
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    throw new IllegalStateException("no free port");
  }

  /** The bundled binary for this platform, extracted once per JVM, or {@code redis-server} from the PATH. */
  private static synchronized Path binary() {
    if (binary == null) {
      binary = extractBundled();
      if (binary == null) {
        binary = onPath();
      }
      // Skips (or, under CI=true, fails) the test class at once, before any test waits on a server.
      Prerequisites.require(binary != null, "redis-server (for the Redis store tests)", "org.signal:embedded-redis "
          + "bundles none for " + platform() + ": put redis-server on the PATH, or set " + TestRedis.URL_ENV
          + " to a Redis the tests may use");
    }
    return binary;
  }

  private static Path extractBundled() {
    String resource = "redis-server-" + BUNDLED_VERSION + "-" + platform();
    try (InputStream in = RedisServerProcess.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        return null;
      }
      Path file = Files.createTempFile("mcp-test-redis-server-", "");
      Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
      file.toFile().deleteOnExit();
      if (!file.toFile().setExecutable(true, true)) {
        return null;
      }
      return file;
    } catch (IOException e) {
      return null;
    }
  }

  private static Path onPath() {
    String path = System.getenv("PATH");
    if (path == null) {
      return null;
    }
    for (String entry : path.split(java.io.File.pathSeparator)) {
      Path candidate = Path.of(entry, "redis-server");
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    return null;
  }

  private static String platform() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    String osPart = os.contains("mac") ? "darwin" : os.contains("linux") ? "linux" : os;
    String archPart = switch (arch) {
      case "amd64", "x86_64" -> "amd64";
      case "aarch64", "arm64" -> "arm64";
      case "x86", "i386", "i686" -> "386";
      default -> arch;
    };
    return osPart + "-" + archPart;
  }
}
