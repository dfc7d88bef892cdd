package io.mcpvertx.server.client;

import java.util.Locale;
import java.util.Optional;

/** The syslog severities MCP uses for {@code notifications/message}, least severe first. */
public enum LoggingLevel {
  DEBUG, INFO, NOTICE, WARNING, ERROR, CRITICAL, ALERT, EMERGENCY;

  /** The wire name, e.g. {@code warning}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public boolean isAtLeast(LoggingLevel other) {
    return ordinal() >= other.ordinal();
  }

  public static Optional<LoggingLevel> fromWireName(String name) {
    if (name != null) {
      for (LoggingLevel level : values()) {
        if (level.wireName().equals(name)) {
          return Optional.of(level);
        }
      }
    }
    return Optional.empty();
  }
}
