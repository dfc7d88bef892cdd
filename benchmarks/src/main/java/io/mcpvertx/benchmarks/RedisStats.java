package io.mcpvertx.benchmarks;

import io.mcpvertx.storage.redis.testing.TestRedis;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** What {@link TaskLifecycleBench} reads from Redis and from the machine. Blocking: the main thread only. */
final class RedisStats {

  /** The benchmark's own commands, left out of the counts. */
  private static final Set<String> ADMIN = Set.of("info", "config");

  private RedisStats() {
  }

  /** One {@code INFO} section as name → value. */
  static Map<String, String> info(TestRedis redis, String section) {
    Map<String, String> values = new HashMap<>();
    for (String line : String.valueOf(redis.call("INFO", section)).split("\r?\n")) {
      int colon = line.indexOf(':');
      if (colon > 0 && !line.startsWith("#")) {
        values.put(line.substring(0, colon), line.substring(colon + 1).trim());
      }
    }
    return values;
  }

  static String config(TestRedis redis, String name) {
    List<?> reply = (List<?>) redis.call("CONFIG", "GET", name);
    return reply.size() < 2 ? "?" : String.valueOf(reply.get(1));
  }

  /** User plus system CPU Redis has used. */
  static double cpuSeconds(TestRedis redis) {
    Map<String, String> cpu = info(redis, "cpu");
    return Double.parseDouble(cpu.get("used_cpu_user")) + Double.parseDouble(cpu.get("used_cpu_sys"));
  }

  /**
   * One field ({@code calls}, {@code usec}) per command since the last {@code CONFIG RESETSTAT}, from
   * {@code INFO commandstats}. Commands that scripts run are counted too, under their own names, besides the
   * EVALSHA that ran them (whose time includes theirs).
   */
  static Map<String, Long> commandStats(TestRedis redis, String field) {
    Map<String, Long> stats = new TreeMap<>();
    String prefix = field + "=";
    info(redis, "commandstats").forEach((name, value) -> {
      String command = name.substring("cmdstat_".length());
      if (ADMIN.contains(command.split("\\|")[0])) {
        return;
      }
      for (String part : value.split(",")) {
        if (part.startsWith(prefix)) {
          stats.put(command, Long.parseLong(part.substring(prefix.length())));
        }
      }
    });
    return stats;
  }

  /** CPU time every process on the machine used (all CPUs, from /proc/stat; not idle, I/O wait or steal). */
  static double machineBusySeconds() {
    try {
      String[] fields = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
      long busy = 0;
      for (int i = 1; i < fields.length && i <= 7; i++) {
        if (i != 4 && i != 5) {
          busy += Long.parseLong(fields[i]);
        }
      }
      return busy / 100.0;
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }
}
