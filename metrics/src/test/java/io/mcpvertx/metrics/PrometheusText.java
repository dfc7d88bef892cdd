package io.mcpvertx.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The samples of a Prometheus text exposition, parsed strictly enough that a malformed line fails the test. */
record PrometheusText(List<Sample> samples) {

  record Sample(String name, Map<String, String> labels, double value) {
  }

  static PrometheusText parse(String text) {
    List<Sample> samples = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      int brace = line.indexOf('{');
      int space = line.lastIndexOf(' ');
      String name;
      Map<String, String> labels = new LinkedHashMap<>();
      if (brace >= 0 && brace < space) {
        name = line.substring(0, brace);
        int end = line.lastIndexOf('}');
        parseLabels(line.substring(brace + 1, end), labels);
      } else {
        name = line.substring(0, space);
      }
      if (!name.matches("[a-zA-Z_:][a-zA-Z0-9_:]*")) {
        throw new IllegalArgumentException("not a metric name: " + line);
      }
      samples.add(new Sample(name, labels, Double.parseDouble(line.substring(space + 1))));
    }
    return new PrometheusText(samples);
  }

  private static void parseLabels(String text, Map<String, String> labels) {
    int i = 0;
    while (i < text.length()) {
      int eq = text.indexOf('=', i);
      String key = text.substring(i, eq);
      if (text.charAt(eq + 1) != '"') {
        throw new IllegalArgumentException("unquoted label value: " + text);
      }
      StringBuilder value = new StringBuilder();
      int j = eq + 2;
      while (text.charAt(j) != '"') {
        if (text.charAt(j) == '\\') {
          j++;
        }
        value.append(text.charAt(j++));
      }
      labels.put(key, value.toString());
      i = j + 1;
      if (i < text.length() && text.charAt(i) == ',') {
        i++;
      }
    }
  }

  /** The value of the one sample named {@code name} whose labels include {@code labels}; fails unless exactly one. */
  double value(String name, Map<String, String> labels) {
    List<Sample> found = find(name, labels);
    if (found.size() != 1) {
      throw new AssertionError("expected one sample " + name + labels + ", found " + found);
    }
    return found.get(0).value();
  }

  List<Sample> find(String name, Map<String, String> labels) {
    List<Sample> found = new ArrayList<>();
    for (Sample sample : samples) {
      if (sample.name().equals(name) && sample.labels().entrySet().containsAll(labels.entrySet())) {
        found.add(sample);
      }
    }
    return found;
  }

  boolean has(String name) {
    return samples.stream().anyMatch(s -> s.name().equals(name));
  }
}
