package io.mcpvertx.server.impl.features;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Matches URIs against an RFC 6570 template and extracts the variables. Supported expressions: {@code {var}}
 * (one segment), {@code {+var}} and {@code {#var}} (reserved, may span segments), {@code {/var}} (a path segment)
 * and {@code {?a,b}} (optional query parameters, in any order). That covers the templates MCP servers publish;
 * anything else is rejected when the template is registered, not when a URI is read.
 */
public final class UriTemplate {

  /** RFC 6570 varname: varchars with single dots between them (a leading dot is the label operator). */
  private static final String NAME = "[A-Za-z0-9_]+(?:\\.[A-Za-z0-9_]+)*";
  private static final Pattern EXPRESSION = Pattern.compile("\\{([+#/?]?)(" + NAME + "(?:," + NAME + ")*)}");

  private final String template;
  private final Pattern pattern;
  private final List<String> names;
  private final List<String> queryNames;

  public UriTemplate(String template) {
    this.template = template;
    StringBuilder regex = new StringBuilder("^");
    List<String> pathNames = new ArrayList<>();
    List<String> query = new ArrayList<>();
    Matcher m = EXPRESSION.matcher(template);
    int last = 0;
    while (m.find()) {
      regex.append(Pattern.quote(literal(template.substring(last, m.start()))));
      String op = m.group(1);
      String[] vars = m.group(2).split(",");
      switch (op) {
        case "" -> {
          requireSingle(vars);
          regex.append("([^/?#]+)");
          pathNames.add(vars[0]);
        }
        case "+", "#" -> {
          requireSingle(vars);
          regex.append(op.equals("#") ? "#" : "").append("([^?]+)");
          pathNames.add(vars[0]);
        }
        case "/" -> {
          requireSingle(vars);
          regex.append("/([^/?#]+)");
          pathNames.add(vars[0]);
        }
        case "?" -> {
          if (m.end() != template.length()) {
            throw new IllegalArgumentException("A {?...} expression must end the URI template: " + template);
          }
          regex.append("(?:\\?([^#]*))?");
          query.addAll(List.of(vars));
        }
        default -> throw new IllegalArgumentException("Unsupported URI template operator in " + template);
      }
      last = m.end();
    }
    regex.append(Pattern.quote(literal(template.substring(last)))).append('$');
    this.pattern = Pattern.compile(regex.toString());
    this.names = List.copyOf(pathNames);
    this.queryNames = List.copyOf(query);
  }

  /** A literal part: a brace in it is an expression we do not support, or a malformed one. */
  private String literal(String part) {
    if (part.indexOf('{') >= 0 || part.indexOf('}') >= 0) {
      throw new IllegalArgumentException("Malformed or unsupported URI template expression in " + template);
    }
    return part;
  }

  private void requireSingle(String[] vars) {
    if (vars.length != 1) {
      throw new IllegalArgumentException("Only {?a,b} may list several variables: " + template);
    }
  }

  public String template() {
    return template;
  }

  /** All variable names, in template order. */
  public List<String> variables() {
    List<String> all = new ArrayList<>(names);
    all.addAll(queryNames);
    return all;
  }

  /** The variables of a matching URI, or null if it does not match. */
  public Map<String, String> match(String uri) {
    Matcher m = pattern.matcher(uri);
    if (!m.matches()) {
      return null;
    }
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = 0; i < names.size(); i++) {
      values.put(names.get(i), decode(m.group(i + 1)));
    }
    if (!queryNames.isEmpty() && m.group(names.size() + 1) != null) {
      for (String pair : m.group(names.size() + 1).split("&")) {
        int eq = pair.indexOf('=');
        String key = eq < 0 ? pair : pair.substring(0, eq);
        if (queryNames.contains(key)) {
          values.put(key, eq < 0 ? "" : decode(pair.substring(eq + 1)));
        }
      }
    }
    return values;
  }

  private static String decode(String s) {
    try {
      return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return s;
    }
  }
}
