package io.mcpvertx.architecture;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The strongly connected groups of more than one package in a dependency graph (Tarjan's algorithm). */
final class PackageCycles {

  private final Map<String, Set<String>> edges;
  private final Map<String, Integer> index = new HashMap<>();
  private final Map<String, Integer> low = new HashMap<>();
  private final Deque<String> stack = new ArrayDeque<>();
  private final Set<String> onStack = new HashSet<>();
  private final List<List<String>> cycles = new ArrayList<>();
  private int next;

  private PackageCycles(Map<String, Set<String>> edges) {
    this.edges = edges;
  }

  static List<List<String>> find(Map<String, Set<String>> edges) {
    PackageCycles search = new PackageCycles(edges);
    for (String node : edges.keySet()) {
      if (!search.index.containsKey(node)) {
        search.visit(node);
      }
    }
    return search.cycles;
  }

  private void visit(String node) {
    index.put(node, next);
    low.put(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (String target : edges.getOrDefault(node, Set.of())) {
      if (!index.containsKey(target)) {
        visit(target);
        low.put(node, Math.min(low.get(node), low.get(target)));
      } else if (onStack.contains(target)) {
        low.put(node, Math.min(low.get(node), index.get(target)));
      }
    }
    if (low.get(node).equals(index.get(node))) {
      List<String> group = new ArrayList<>();
      String member;
      do {
        member = stack.pop();
        onStack.remove(member);
        group.add(member);
      } while (!member.equals(node));
      if (group.size() > 1) {
        cycles.add(group);
      }
    }
  }
}
