package io.mcpvertx.server.impl.features;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Matching URIs against the RFC 6570 subset resource templates may use. */
class UriTemplateTest {

  @Test
  void matchesASimpleVariableWithinOneSegment() {
    UriTemplate template = new UriTemplate("file:///logs/{date}.log");
    assertEquals(Map.of("date", "2025-01-02"), template.match("file:///logs/2025-01-02.log"));
    assertNull(template.match("file:///logs/2025/01.log"));
    assertNull(template.match("file:///logs/.log"));
    assertNull(template.match("file:///other/2025-01-02.log"));
  }

  @Test
  void decodesPercentEscapesAndKeepsPlusSigns() {
    UriTemplate template = new UriTemplate("notes://{title}");
    assertEquals(Map.of("title", "a b+c/d"), template.match("notes://a%20b+c%2Fd"));
  }

  @Test
  void leavesAMalformedEscapeAsItIs() {
    assertEquals(Map.of("title", "100%"), new UriTemplate("notes://{title}").match("notes://100%"));
  }

  @Test
  void letsReservedExpansionSpanSegments() {
    UriTemplate template = new UriTemplate("file:///{+path}");
    assertEquals(Map.of("path", "src/main/App.java"), template.match("file:///src/main/App.java"));
  }

  @Test
  void matchesAFragment() {
    assertEquals(Map.of("section", "intro"), new UriTemplate("doc://guide{#section}").match("doc://guide#intro"));
    assertNull(new UriTemplate("doc://guide{#section}").match("doc://guide"));
  }

  @Test
  void matchesAPathSegmentExpression() {
    UriTemplate template = new UriTemplate("api://items{/id}");
    assertEquals(Map.of("id", "42"), template.match("api://items/42"));
    assertNull(template.match("api://items/42/more"));
  }

  @Test
  void readsOptionalQueryParametersInAnyOrder() {
    UriTemplate template = new UriTemplate("search://docs{?q,lang}");
    assertEquals(Map.of(), template.match("search://docs"));
    assertEquals(Map.of("q", "vert.x", "lang", "en"), template.match("search://docs?lang=en&q=vert.x"));
    assertEquals(Map.of("q", "a b"), template.match("search://docs?other=1&q=a%20b"));
    assertEquals(Map.of("lang", ""), template.match("search://docs?lang"));
  }

  @Test
  void treatsLiteralPartsLiterally() {
    UriTemplate template = new UriTemplate("a.b://x/{id}.json");
    assertEquals(Map.of("id", "1"), template.match("a.b://x/1.json"));
    assertNull(template.match("aXb://x/1.json"));
    assertNull(template.match("a.b://x/1Xjson"));
  }

  @Test
  void matchesATemplateWithoutVariablesExactly() {
    UriTemplate template = new UriTemplate("config://app");
    assertEquals(Map.of(), template.match("config://app"));
    assertNull(template.match("config://app2"));
  }

  @Test
  void acceptsDottedVariableNames() {
    assertEquals(Map.of("user.id", "7"), new UriTemplate("users://{user.id}").match("users://7"));
  }

  @Test
  void listsItsVariablesInTemplateOrder() {
    UriTemplate template = new UriTemplate("db://{schema}/tables/{table}{?limit,offset}");
    assertEquals(List.of("schema", "table", "limit", "offset"), template.variables());
    assertEquals("db://{schema}/tables/{table}{?limit,offset}", template.template());
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "x://{a,b}",          // several variables outside {?...}
      "x://{?q}/more",      // query expression before the end
      "x://{&a}",           // unsupported operator
      "x://{.ext}/{id}",    // unsupported operator before a supported expression
      "x://{;p}/{id}",
      "x://{id:3}",         // prefix modifier
      "x://{list*}/{id}",   // explode modifier
      "x://{unclosed",
      "x://{a}}/{b}",       // stray brace between expressions
      "x://{}/{id}"})
  void rejectsWhatItCannotMatchWhenTheTemplateIsBuilt(String template) {
    assertThrows(IllegalArgumentException.class, () -> new UriTemplate(template));
  }
}
