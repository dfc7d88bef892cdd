package io.mcpvertx.examples.hello;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/** The README's first-tool snippet must be the compiled code, so it cannot drift. */
class ReadmeSnippetTest {

  @Test
  void readmeShowsTheCompiledFirstToolSnippet() throws Exception {
    String root = System.getProperty("mcp.repo.root", "..");
    String source = Files.readString(Paths.get("src/main/java/io/mcpvertx/examples/hello/HelloServer.java"));
    String readme = Files.readString(Path.of(root, "README.md"));
    int start = source.indexOf('\n', source.indexOf("// tag::first-tool[]")) + 1;
    int end = source.lastIndexOf('\n', source.indexOf("// end::first-tool[]"));
    String snippet = source.substring(start, end);
    assertTrue(snippet.contains("server.tool("), "the tagged region moved");
    assertTrue(readme.contains(snippet), "README.md's first-tool snippet differs from HelloServer.java:\n" + snippet);
  }
}
