package io.mcpvertx.examples.annotated;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** docs/handlers.md shows the compiled annotated examples, so its snippets cannot drift from the code. */
class HandlersDocTest {

  @ParameterizedTest
  @CsvSource({"hello/HelloFeatures.java, annotated-hello", "verticle/AnnotatedClockVerticle.java, annotated-clock"})
  void theGuideShowsTheCompiledSnippet(String file, String tag) throws Exception {
    String root = System.getProperty("mcp.repo.root", "..");
    String source = Files.readString(Path.of("src/main/java/io/mcpvertx/examples", file));
    String guide = Files.readString(Path.of(root, "docs", "handlers.md"));
    int start = source.indexOf('\n', source.indexOf("// tag::" + tag + "[]")) + 1;
    int end = source.lastIndexOf('\n', source.indexOf("// end::" + tag + "[]"));
    assertTrue(start > 0 && end > start, "the tagged region of " + file + " moved");
    String snippet = source.substring(start, end);
    assertTrue(guide.contains(snippet), "docs/handlers.md's snippet differs from " + file + ":\n" + snippet);
  }
}
