package io.mcpvertx.examples.conformance;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs a test once per session revision the suite's scenarios are tagged with (2025-06-18 and 2025-11-25); the
 * revision is the test's first parameter.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedTest(name = "protocol {0}")
@ValueSource(strings = {"2025-06-18", "2025-11-25"})
@interface SessionRevisions {
}
