#!/usr/bin/env bash
# Summarises a results.csv written by benchmarks/run.sh (run.sh calls it at the end; it can be re-run on old results):
#
#   benchmarks/summarize.sh benchmarks/target/bench-<timestamp>/results.csv
#
# Per mode: the median and [min-max] over rounds. Ratios to echo are taken per round (each mode against the echo
# run of the same round, started just before it on the same machine), then summarised the same way:
#   rps ratio = mode req/s / echo req/s                           (the headline number)
#   CPU ratio = echo server-CPU-us/req / mode server-CPU-us/req   (the throughput ratio the two would have if the
#               server's core were the only limit; much less sensitive to other processes than req/s)
#
# A second table keeps only the quiet rounds: those where other processes used less than QUIET_MAX % of one CPU
# (default 10) during every measurement of the round. On a shared machine these are the rounds whose req/s mean
# something; the rule is fixed in advance, not chosen after looking at the numbers. A third table keeps every quiet
# measurement, whatever its round, and compares the medians (quiet rounds with all modes quiet are rare on a busy
# machine).
set -euo pipefail
CSV="${1:?usage: summarize.sh results.csv}"
QUIET_MAX="${QUIET_MAX:-10}"

awk -F, -v quiet_max="$QUIET_MAX" '
  NR == 1 { next }
  {
    m = $2; r = $1
    if (!(m in seen)) { seen[m] = 1; ms[++nm] = m }
    duration = $8 / $3
    rps[m, r] = $3; p50[m, r] = $4; p99[m, r] = $6; cpu[m, r] = $13; rounds[r] = 1
    busy[m, r] = 100 * $12 / duration; ctxsw[m, r] = $16; wrk[m, r] = 100 * $17 / duration
    others[m, r] = 100 * $20 / duration
    if (others[m, r] >= quiet_max) noisy[r] = 1
    else quiet[m, r] = 1
  }
  function sort(a, n,   i, j, t) { for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t } }
  function median(a, n) { return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
  function med(arr, m,   n, r, v) {
    n = 0; for (r in sel) if ((m, r) in arr && (!only_quiet || (m, r) in quiet)) v[++n] = arr[m, r]
    if (n == 0) return -1
    sort(v, n)
    return median(v, n)
  }
  function stat(arr, m, scale, fmt,   n, r, v) {
    n = 0; for (r in sel) if ((m, r) in arr && (!only_quiet || (m, r) in quiet)) v[++n] = arr[m, r] / scale
    if (n == 0) return "-"
    sort(v, n)
    return sprintf(fmt " [" fmt "-" fmt "]", median(v, n), v[1], v[n])
  }
  function ratio(m, inverse,   n, r, v, a, b) {
    if (m == "echo") return "-"
    if (only_quiet) {
      if (inverse) { a = med(cpu, m); b = med(cpu, "echo") } else { a = med(rps, m); b = med(rps, "echo") }
      if (a <= 0 || b <= 0) return "-"
      return sprintf("%.2f (of medians)", inverse ? b / a : a / b)
    }
    n = 0
    for (r in sel) if ((m, r) in rps && ("echo", r) in rps) {
      if (inverse) { if (cpu[m, r] > 0) v[++n] = cpu["echo", r] / cpu[m, r] } else v[++n] = rps[m, r] / rps["echo", r]
    }
    if (n == 0) return "-"
    sort(v, n)
    return sprintf("%.2f [%.2f-%.2f]", median(v, n), v[1], v[n])
  }
  function table(title,   k, m, n, r) {
    n = 0; for (r in sel) n++
    if (only_quiet) {
      n = 0; for (k in quiet) n++
      printf "\n%s: median [min-max] over %d measurement(s)\n", title, n
    } else {
      printf "\n%s: median [min-max] over %d round(s)\n", title, n
    }
    if (n == 0) return
    printf "%-6s %-22s %-20s %-23s %-18s %s\n", "mode", "req/s", "p50 ms", "p99 ms", "rps ratio to echo", "CPU ratio to echo"
    for (k = 1; k <= nm; k++) {
      m = ms[k]
      printf "%-6s %-22s %-20s %-23s %-18s %s\n", m, stat(rps, m, 1, "%.0f"), stat(p50, m, 1000, "%.2f"),
        stat(p99, m, 1000, "%.1f"), ratio(m, 0), ratio(m, 1)
    }
    printf "%-6s %-20s %-18s %-22s %-18s %s\n", "mode", "server CPU us/req", "server CPU %", "other processes CPU %", "ctx switches/req", "wrk CPU %"
    for (k = 1; k <= nm; k++) {
      m = ms[k]
      printf "%-6s %-20s %-18s %-22s %-18s %s\n", m, stat(cpu, m, 1, "%.1f"), stat(busy, m, 1, "%.0f"),
        stat(others, m, 1, "%.0f"), stat(ctxsw, m, 1, "%.2f"), stat(wrk, m, 1, "%.0f")
    }
  }
  END {
    for (r in rounds) sel[r] = 1
    table("all rounds")
    delete sel
    for (r in rounds) if (!(r in noisy)) sel[r] = 1
    table("quiet rounds (other processes under " quiet_max "% of a CPU in every measurement of the round)")
    delete sel
    for (r in rounds) sel[r] = 1
    only_quiet = 1
    table("quiet measurements of any round (other processes under " quiet_max "% of a CPU during the measurement)")
  }' "$CSV"
