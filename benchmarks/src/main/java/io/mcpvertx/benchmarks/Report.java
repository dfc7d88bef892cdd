package io.mcpvertx.benchmarks;

import io.mcpvertx.benchmarks.TaskLifecycleBench.Result;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/** The tables {@link TaskLifecycleBench} prints, in Markdown. */
final class Report {

  private Report() {
  }

  static String header() {
    return "| round | mode | per s | p50 µs | p99 µs | failed | round trips / op | Redis CPU µs / op "
        + "| JVM CPU µs / op | others' CPU % | extra tasks/get / op |\n"
        + "|---|---|---|---|---|---|---|---|---|---|---|";
  }

  static String row(Result r) {
    return String.format("| %d | %s | %,.0f | %,d | %,d | %d | %s | %s | %.1f | %.0f | %s |", r.round(), r.mode(),
        r.perSecond(), r.percentileUs(0.5), r.percentileUs(0.99), r.failures(), roundTrips(r), redisCpu(r),
        jvmCpuUs(r), othersPercent(r), r.mode().startsWith("engine") ? String.format("%.2f",
            (double) r.extraGets() / r.operations()) : "–");
  }

  /** Median [min–max] over the rounds, per mode. */
  static String summary(List<Result> results) {
    Map<String, List<Result>> byMode = new LinkedHashMap<>();
    results.forEach(r -> byMode.computeIfAbsent(r.mode(), k -> new ArrayList<>()).add(r));
    StringBuilder out = new StringBuilder("Median [min–max] over the rounds\n\n"
        + "| mode | per s | p50 µs | p99 µs | round trips / op | Redis CPU µs / op | JVM CPU µs / op |\n"
        + "|---|---|---|---|---|---|---|\n");
    byMode.forEach((mode, rounds) -> out.append(String.format("| %s | %s | %s | %s | %s | %s | %s |%n", mode,
        spread(rounds, Result::perSecond, "%,.0f"), spread(rounds, r -> r.percentileUs(0.5), "%,.0f"),
        spread(rounds, r -> r.percentileUs(0.99), "%,.0f"), roundTrips(rounds.get(0)),
        mode.endsWith("memory") ? "–" : spread(rounds, r -> r.redisCpuSeconds() * 1e6 / r.operations(), "%.1f"),
        spread(rounds, Report::jvmCpuUs, "%.1f"))));
    return out.toString();
  }

  /**
   * Redis's calls per command per operation, its time, and the client's round trips, for the modes that use Redis;
   * each from the mode's round in which other processes were the least busy.
   */
  static String commands(List<Result> results) {
    Map<String, Result> last = new LinkedHashMap<>();
    results.stream().filter(r -> !r.mode().endsWith("memory")).forEach(r -> last.merge(r.mode(), r,
        (a, b) -> othersPercent(b) < othersPercent(a) ? b : a));
    if (last.isEmpty()) {
      return "";
    }
    TreeSet<String> commands = new TreeSet<>();
    last.values().forEach(r -> commands.addAll(r.commandCalls().keySet()));
    StringBuilder out = new StringBuilder("Per operation, in each mode's quietest round: calls from INFO commandstats "
        + "(every command Redis ran, inside scripts too) with Redis's µs in them, Redis's time, and the client's round trips\n\n| command |");
    last.keySet().forEach(mode -> out.append(' ').append(mode).append(" |"));
    out.append("\n|---|").append("---|".repeat(last.size())).append('\n');
    for (String command : commands) {
      out.append("| ").append(command).append(" |");
      // Calls, then Redis's time in them (for EVALSHA including the commands its scripts ran).
      last.values().forEach(r -> out.append(' ').append(perOp(r.commandCalls().get(command), r)).append(" (")
          .append(micros(r.commandUsec().get(command), r)).append(" µs) |"));
      out.append('\n');
    }
    out.append("| **commands run by Redis** |");
    last.values().forEach(r -> out.append(' ').append(perOp(r.commandCalls().values().stream()
        .mapToLong(Long::longValue).sum(), r)).append(" |"));
    out.append('\n');
    out.append("| µs in EVALSHA (the scripts) |");
    last.values().forEach(r -> out.append(' ').append(micros(r.commandUsec().get("evalsha"), r)).append(" |"));
    out.append('\n');
    out.append("| Redis CPU µs (all of it) |");
    last.values().forEach(r -> out.append(' ').append(redisCpu(r)).append(" |"));
    out.append('\n');
    TreeSet<String> sent = new TreeSet<>();
    last.values().forEach(r -> sent.addAll(r.roundTrips().keySet()));
    for (String command : sent) {
      out.append("| round trips: ").append(command).append(" |");
      last.values().forEach(r -> out.append(' ').append(perOp(r.roundTrips().get(command), r)).append(" |"));
      out.append('\n');
    }
    out.append("| **round trips** |");
    last.values().forEach(r -> out.append(' ').append(roundTrips(r)).append(" |"));
    out.append('\n');
    last.values().forEach(r -> out.append(String.format("%n%s: round %d, %,d operations measured", r.mode(),
        r.round(), r.operations())));
    return out.append('\n').toString();
  }

  private static String perOp(Long calls, Result r) {
    return calls == null || calls == 0 ? "–" : String.format("%.3f", (double) calls / r.operations());
  }

  private static String micros(Long usec, Result r) {
    return usec == null || usec == 0 ? "–" : String.format("%.1f", (double) usec / r.operations());
  }

  private static String roundTrips(Result r) {
    if (r.roundTrips().isEmpty()) {
      return "–";
    }
    return perOp(r.roundTrips().values().stream().mapToLong(Long::longValue).sum(), r);
  }

  private static String redisCpu(Result r) {
    return r.mode().endsWith("memory") ? "–" : String.format("%.1f", r.redisCpuSeconds() * 1e6 / r.operations());
  }

  private static double jvmCpuUs(Result r) {
    return r.jvmCpuSeconds() * 1e6 / r.operations();
  }

  private static double othersPercent(Result r) {
    return Math.max(0, r.machineBusySeconds() - r.jvmCpuSeconds() - r.redisCpuSeconds()) * 100 / r.seconds();
  }

  private static String spread(List<Result> rounds, ToDoubleFunction<Result> value, String format) {
    List<Double> values = rounds.stream().map(value::applyAsDouble).sorted(Comparator.naturalOrder()).toList();
    String median = String.format(format, values.get(values.size() / 2));
    if (values.size() == 1) {
      return median;
    }
    return median + " [" + String.format(format, values.get(0)) + "–"
        + String.format(format, values.get(values.size() - 1)) + "]";
  }
}
