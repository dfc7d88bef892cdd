package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.verticles.http.McpHttpServerOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.HostAndPort;
import java.net.URI;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The checks every request passes before it reaches a session: {@code Host} against DNS rebinding, {@code Origin}
 * against cross-site calls, and the media types of {@code Accept} and {@code Content-Type}.
 */
final class RequestGuard {

  private static final Set<String> LOOPBACK_NAMES = Set.of("localhost", "127.0.0.1", "[::1]", "::1");
  private static final Pattern LOOPBACK_IPV4 =
      Pattern.compile("127(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}");

  private static final Pattern QZERO = Pattern.compile("0(\\.0{0,3})?");

  private final Set<String> allowedHosts;
  private final Set<String> allowedOrigins;
  private final boolean loopbackOnly;
  /** The last host checked and its verdict: clients name the same host on every request. */
  private volatile HostVerdict lastHost;

  private record HostVerdict(String host, String problem) {
  }

  RequestGuard(McpHttpServerOptions options) {
    this.allowedHosts = options.getAllowedHosts().stream().map(h -> h.toLowerCase(Locale.ROOT))
        .collect(Collectors.toUnmodifiableSet());
    this.allowedOrigins = options.getAllowedOrigins().stream().map(o -> o.toLowerCase(Locale.ROOT))
        .collect(Collectors.toUnmodifiableSet());
    String bind = options.getHost().toLowerCase(Locale.ROOT);
    this.loopbackOnly = isLoopbackName(bind);
  }

  /** Null if the Host is acceptable, otherwise why not. */
  String checkHost(HttpServerRequest request) {
    HostAndPort authority = request.authority();
    if (authority == null) {
      return "a Host header is required";
    }
    HostVerdict last = lastHost;
    if (last != null && last.host.equals(authority.host())) {
      return last.problem;
    }
    String problem = checkHost(authority.host().toLowerCase(Locale.ROOT));
    lastHost = new HostVerdict(authority.host(), problem);
    return problem;
  }

  private String checkHost(String host) {
    if (!allowedHosts.isEmpty()) {
      return allowedHosts.contains(host) ? null : "host " + host + " is not allowed";
    }
    if (loopbackOnly && !isLoopbackName(host)) {
      return "host " + host + " is not allowed for a server bound to loopback";
    }
    return null;
  }

  /** Null if there is no Origin or it is allowed, otherwise why not. */
  String checkOrigin(HttpServerRequest request) {
    String origin = request.getHeader(HttpHeaders.ORIGIN);
    return origin == null || isAllowedOrigin(origin) ? null : "origin " + origin + " is not allowed";
  }

  /** Listed origins are allowed; with no list, loopback origins are. */
  boolean isAllowedOrigin(String origin) {
    String normalized = origin.toLowerCase(Locale.ROOT);
    if (allowedOrigins.contains(normalized)) {
      return true;
    }
    try {
      String host = URI.create(normalized).getHost();
      return allowedOrigins.isEmpty() && host != null && isLoopbackName(host);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /**
   * Loopback names and IPv4 literals in 127.0.0.0/8. Only literals: a name that merely starts with "127." (such as
   * {@code 127.attacker.example}) is a DNS name its owner can point at loopback, which is the rebinding attack.
   */
  private static boolean isLoopbackName(String host) {
    return LOOPBACK_NAMES.contains(host) || LOOPBACK_IPV4.matcher(host).matches();
  }

  /**
   * Whether an Accept header admits a media type (wildcards count). A missing header admits nothing. The most
   * specific range that matches decides (RFC 9110, 12.5.1), and a quality of 0 means "not acceptable": so
   * {@code text/event-stream;q=0} beside a wildcard still refuses event streams.
   */
  static boolean accepts(String accept, String mediaType) {
    if (accept == null) {
      return false;
    }
    String type = mediaType.substring(0, mediaType.indexOf('/'));
    int best = -1;
    boolean admitted = false;
    for (String part : accept.split(",")) {
      // With -1, a part that is only ";" still has an (empty) range rather than no pieces at all.
      String[] pieces = part.split(";", -1);
      String range = pieces[0].trim().toLowerCase(Locale.ROOT);
      int specificity = range.equals(mediaType) ? 2 : range.equals(type + "/*") ? 1 : range.equals("*/*") ? 0 : -1;
      if (specificity > best || specificity == best && specificity >= 0 && !admitted) {
        best = specificity;
        admitted = !zeroQuality(pieces);
      }
    }
    return best >= 0 && admitted;
  }

  /** Whether a range's parameters give it {@code q=0} (or {@code 0.0}, {@code 0.000}). */
  private static boolean zeroQuality(String[] pieces) {
    for (int i = 1; i < pieces.length; i++) {
      String param = pieces[i].trim();
      int eq = param.indexOf('=');
      if (eq > 0 && param.substring(0, eq).trim().equalsIgnoreCase("q")) {
        return QZERO.matcher(param.substring(eq + 1).trim()).matches();
      }
    }
    return false;
  }

  static boolean isJson(String contentType) {
    if (contentType == null) {
      return false;
    }
    int semi = contentType.indexOf(';');
    String type = (semi < 0 ? contentType : contentType.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
    return type.equals("application/json");
  }
}
