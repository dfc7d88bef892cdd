package io.mcpvertx.examples.e2e.cluster;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.testing.Prerequisites;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A real nginx in front of the cluster's HTTP ports, run in the foreground from a generated config in its own
 * prefix folder (its pid file, logs and temp files stay there): round-robin over every instance with no
 * stickiness, SSE passed through as it comes (no buffering either way, a long read timeout), a request whose
 * connection was refused, reset or closed before an answer tried on the next instance (POSTs too), and an access
 * log that names the instance of each request ({@code $upstream_addr}) and its session.
 */
final class Nginx implements AutoCloseable {

  /** Where the Debian package puts it; {@code /usr/sbin} is not always on the PATH. */
  private static final List<String> CANDIDATES = List.of("/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx");

  /** One access log line: method, status, the upstream(s) tried (comma-separated on a retry), the session. */
  record Access(String method, int status, List<String> upstreams, String sessionId) {

    /** The instance that answered: the last one tried. */
    String upstream() {
      return upstreams.isEmpty() ? "-" : upstreams.get(upstreams.size() - 1);
    }
  }

  /** A line of the access log ({@code log_format upstreams} below): method, status, upstreams, session. */
  private static final Pattern ACCESS = Pattern.compile("(\\S+) (\\d+) upstream=(.*?) session=(\\S+) ");

  private final Process process;
  private final Path dir;
  private final int port;

  private Nginx(Process process, Path dir, int port) {
    this.process = process;
    this.dir = dir;
    this.port = port;
  }

  private static final String HOW_TO_GET = "install the Debian package nginx-light (apt-get install -y "
      + "--no-install-recommends nginx-light, as .ci/run does) or put nginx on the PATH";

  /** The nginx binary: on the PATH or where the Debian package installs it; fails saying how to get one. */
  static String binary() {
    return find().orElseThrow(() -> new AssertionError("The cluster tests need nginx: " + HOW_TO_GET
        + "; none on the PATH nor in " + CANDIDATES));
  }

  /** Skips (or, under {@code CI=true}, fails) the calling test at once when there is no nginx. */
  static void require() {
    Prerequisites.require(find().isPresent(), "nginx (for the cluster tests)", HOW_TO_GET);
  }

  private static Optional<String> find() {
    for (String path : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (!path.isEmpty() && Files.isExecutable(Paths.get(path, "nginx"))) {
        return Optional.of(Paths.get(path, "nginx").toString());
      }
    }
    return CANDIDATES.stream().filter(c -> Files.isExecutable(Paths.get(c))).findFirst();
  }

  /** Starts nginx on {@code port} of 127.0.0.1 in front of {@code upstreamPorts}, waits until it accepts. */
  static Nginx start(Path dir, int port, List<Integer> upstreamPorts) throws Exception {
    Files.createDirectories(dir.resolve("temp"));
    Path conf = dir.resolve("nginx.conf");
    Files.writeString(conf, config(dir, port, upstreamPorts), StandardCharsets.UTF_8);
    Path out = dir.resolve("nginx.out");
    Process process = new ProcessBuilder(binary(), "-p", dir.toString(), "-e", dir.resolve("error.log").toString(),
        "-c", conf.toString(), "-g", "daemon off;")
        .redirectErrorStream(true).redirectOutput(out.toFile()).start();
    Nginx nginx = new Nginx(process, dir, port);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new AssertionError("nginx exited (" + process.exitValue() + "):\n" + nginx.output());
      }
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
        return nginx;
      } catch (IOException notYet) {
        Thread.sleep(50);
      }
    }
    nginx.close();
    throw new AssertionError("nginx did not listen on " + port + " within 20 s:\n" + nginx.output());
  }

  private static String config(Path dir, int port, List<Integer> upstreamPorts) {
    String servers = upstreamPorts.stream()
        // max_fails/fail_timeout: an instance that refused a connection is left out for a few seconds.
        .map(p -> "    server 127.0.0.1:" + p + " max_fails=1 fail_timeout=5s;")
        .collect(Collectors.joining("\n"));
    String temp = dir.resolve("temp").toString();
    // As root, the workers would run as nobody and could not use the temp folder: keep them as root there.
    String user = "root".equals(System.getProperty("user.name")) ? "user root;\n" : "";
    return user + """
        worker_processes 1;
        pid %1$s/nginx.pid;
        error_log %1$s/error.log notice;
        events { worker_connections 1024; }
        http {
          log_format upstreams '$request_method $status upstream=$upstream_addr session=$http_mcp_session_id '
                               '$request_time "$request_uri"';
          access_log %1$s/access.log upstreams;
          client_body_temp_path %2$s/body;
          proxy_temp_path %2$s/proxy;
          fastcgi_temp_path %2$s/fastcgi;
          uwsgi_temp_path %2$s/uwsgi;
          scgi_temp_path %2$s/scgi;
          upstream mcp {
        %3$s
          }
          server {
            listen 127.0.0.1:%4$d;
            location / {
              proxy_pass http://mcp;
              proxy_http_version 1.1;
              proxy_set_header Connection "";
              # The client's own Host (127.0.0.1:<nginx port>): the server checks it against DNS rebinding.
              proxy_set_header Host $http_host;
              # SSE streams go through as they come. A request's body is read whole before it goes on (nginx's
              # default), so nginx still has it to send to the next instance.
              proxy_buffering off;
              proxy_cache off;
              proxy_read_timeout 600s;
              proxy_send_timeout 600s;
              proxy_connect_timeout 2s;
              # A connection refused, reset or closed before any answer came tries the next instance, POSTs too:
              # a stopping instance answers every request it read, so what it drops it never read, and a request
              # sent again while it still runs on its session's owner is handed to the new exchange, not run twice.
              proxy_next_upstream error timeout non_idempotent;
              # Which instance answered: the load scripts name it when a call fails.
              add_header X-Upstream $upstream_addr always;
            }
          }
        }
        """.formatted(dir, temp, servers, port);
  }

  String url() {
    return "http://127.0.0.1:" + port + "/mcp";
  }

  /** Every request nginx logged so far (flushed as each ends). */
  List<Access> accesses() throws IOException {
    Path log = dir.resolve("access.log");
    if (!Files.exists(log)) {
      return List.of();
    }
    List<Access> accesses = new ArrayList<>();
    try (Stream<String> lines = Files.lines(log, StandardCharsets.UTF_8)) {
      for (String line : lines.toList()) {
        // The upstream list of a retried request is "a, b": it holds spaces, so the line is not split on them.
        Matcher m = ACCESS.matcher(line);
        if (!m.lookingAt()) {
          continue;
        }
        String upstream = m.group(3);
        List<String> upstreams = upstream.equals("-") ? List.of()
            : Arrays.stream(upstream.split(",\\s*")).map(String::trim).toList();
        String session = m.group(4);
        accesses.add(new Access(m.group(1), Integer.parseInt(m.group(2)), upstreams, session.equals("-") ? null
            : session));
      }
    }
    return accesses;
  }

  /** The instances each session's requests were answered by, for sessions seen in the access log. */
  Map<String, Set<String>> instancesBySession() throws IOException {
    Map<String, Set<String>> spread = new LinkedHashMap<>();
    for (Access access : accesses()) {
      if (access.sessionId() != null && !access.upstreams().isEmpty()) {
        spread.computeIfAbsent(access.sessionId(), s -> new TreeSet<>()).add(access.upstream());
      }
    }
    return spread;
  }

  /** The error log and what nginx printed, for failure messages. */
  String output() {
    StringBuilder text = new StringBuilder();
    for (String name : List.of("nginx.out", "error.log")) {
      try {
        Path file = dir.resolve(name);
        if (Files.exists(file)) {
          text.append("--- ").append(name).append(" ---\n").append(Files.readString(file, StandardCharsets.UTF_8));
        }
      } catch (IOException e) {
        text.append("(could not read ").append(name).append(": ").append(e).append(")\n");
      }
    }
    return text.toString();
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy(); // SIGTERM: nginx's fast shutdown
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }
}
