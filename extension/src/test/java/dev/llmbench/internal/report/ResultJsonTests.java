package dev.llmbench.internal.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.result.ServiceLevels;
import dev.llmbench.testkit.Levels;
import dev.llmbench.testkit.Traces;
import java.io.StringReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

class ResultJsonTests {

  /** A level of 2 x C requests, each with 4 tokens 10 ms apart after a TTFT of 20 ms, staggered by 5 ms. */
  static MeasuredLevel level(int c) {
    return Levels.closed(c).maxTokens(4).percentiles(50.0, 99.0).slo(ServiceLevels.none().withTtft(Duration.ofMillis(25)))
        .requests(2 * c, i -> Traces.at(i * 5L).content(20, 30, 40, 50).usage(7, 4).build()).build();
  }

  @Test
  void summaryUsesVllmNamesAndUnits() {
    MeasuredLevel r = level(2);
    JsonNode json = ResultJson.read(ResultJson.write(r));
    assertThat(json.get("completed").asInt()).isEqualTo(4);
    assertThat(json.get("failed").asInt()).isZero();
    assertThat(json.get("total_output_tokens").asInt()).isEqualTo(16);
    assertThat(json.get("total_input_tokens").asInt()).isEqualTo(28);
    assertThat(json.get("duration").asDouble()).isCloseTo(0.065, within(1e-9)); // 0 .. 15 + 50 ms
    assertThat(json.get("output_throughput").asDouble()).isCloseTo(16 / 0.065, within(1e-6));
    assertThat(json.get("mean_ttft_ms").asDouble()).isCloseTo(20.0, within(1e-9));
    assertThat(json.get("p99_tpot_ms").asDouble()).isCloseTo(10.0, within(1e-9));
    assertThat(json.get("median_itl_ms").asDouble()).isCloseTo(10.0, within(1e-9));
    assertThat(json.get("mean_e2el_ms").asDouble()).isCloseTo(50.0, within(1e-9));
    assertThat(json.get("request_goodput").asDouble()).isCloseTo(4 / 0.065, within(1e-6));
    assertThat(json.get("ttfts").get(0).asDouble()).isCloseTo(0.020, within(1e-12)); // seconds, as vLLM
    assertThat(json.has("itls")).as("per-chunk data only when asked").isFalse();
    assertThat(json.get("requests").get(0).get("token_chunks").asInt()).isEqualTo(4);
    assertThat(json.get("requests").get(0).get("chunk_arrivals_ms")).isEmpty();
    JsonNode detailed = ResultJson.read(ResultJson.write(r, new ReportOptions(true)));
    assertThat(detailed.get("itls").get(0)).hasSize(3);
    assertThat(detailed.get("itls").get(0).get(0).asDouble()).isCloseTo(0.010, within(1e-12));
    assertThat(json.get("max_concurrent_requests").asInt()).isEqualTo(4); // 50 ms requests, 5 ms apart
    assertThat(json.get("llmbench").get("time_to_ready_s").asDouble()).isZero();
    assertThat(json.get("llmbench").get("label").asText()).isEqualTo("C=2");
    assertThat(json.get("max_output_tokens_per_s").asDouble()).isEqualTo(16.0); // all within the first second
  }

  /** 16 requests of {@code tokens} tokens each, one every millisecond. */
  static MeasuredLevel longLevel(int tokens) {
    long[] arrivals = new long[tokens];
    for (int t = 0; t < tokens; t++) arrivals[t] = 20 + t;
    return Levels.closed(16).maxTokens(tokens).requests(16, i -> Traces.at(i).content(arrivals).usage(7, tokens).build()).build();
  }

  @Test
  void aLevelsFileDoesNotGrowWithItsTokensUnlessChunkTimingsAreAsked() {
    int small = ResultJson.write(longLevel(10)).length();
    int large = ResultJson.write(longLevel(10_000)).length();
    assertThat(large).as("10,000 tokens a request against 10").isLessThan(small + 16 * 64);
    int detailed = ResultJson.write(longLevel(10_000), new ReportOptions(true)).length();
    assertThat(detailed).as("with chunk timings: every arrival and every gap").isGreaterThan(16 * 10_000 * 2 * 4);
    JsonNode json = ResultJson.read(ResultJson.write(longLevel(10_000)));
    assertThat(json.get("median_itl_ms").asDouble()).as("statistics over every gap either way").isEqualTo(1.0);
    assertThat(json.at("/requests/0/token_chunks").asInt()).isEqualTo(10_000);
  }

  @Test
  void perRequestRecordsRoundTrip() {
    MeasuredLevel r = level(2);
    String json = ResultJson.write(r, new ReportOptions(true));
    List<RequestRecord> back = ResultJson.readRequests(json);
    long start = r.metrics().stream().mapToLong(m -> m.trace().startNanos()).min().orElseThrow();
    List<RequestRecord> expected = new ArrayList<>();
    for (int i = 0; i < r.metrics().size(); i++) expected.add(RequestRecord.of(i, r.metrics().get(i), start, true));
    assertThat(back).isEqualTo(expected);
    assertThat(back.get(1).startOffsetMs()).isEqualTo(5.0);
    assertThat(back.get(0).chunkArrivalsMs()).containsExactly(20.0, 30.0, 40.0, 50.0);
  }

  @Test
  void chartsAreSvgWithTitledAxesTicksAndEveryValue() throws Exception {
    List<MeasuredLevel> levels = List.of(level(1), level(2), level(4));
    String svg = SvgCharts.forSweep(levels).get("throughput");
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false); // offline
    Document doc = factory.newDocumentBuilder().parse(new InputSource(new StringReader(svg)));
    assertThat(doc.getDocumentElement().getNodeName()).isEqualTo("svg");
    NodeList texts = doc.getElementsByTagName("text");
    List<String> labels = new ArrayList<>();
    for (int i = 0; i < texts.getLength(); i++) labels.add(texts.item(i).getTextContent().strip());
    // The title names the figure and the load, not the sweep: the page, the folder and Allure around it do.
    assertThat(labels).contains("Output throughput by concurrency", "Concurrency (requests in flight, log2 scale)",
        "Output throughput (tok/s)", "1", "2", "4");
    for (SweepLevelResult l : levels) {
      assertThat(labels).contains(String.format(java.util.Locale.ROOT, "%.1f", l.outputThroughput().perSecond()));
    }
  }
}
