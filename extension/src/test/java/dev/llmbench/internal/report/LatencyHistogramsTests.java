package dev.llmbench.internal.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmbench.Metric;
import dev.llmbench.client.ErrorKind;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.testkit.Levels;
import dev.llmbench.testkit.Traces;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LatencyHistogramsTests {

  /** Three successful requests (TTFT 20, 30, 40 ms; chunks 10 ms apart) and one failure. */
  static MeasuredLevel level() {
    return Levels.closed(2)
        .request(Traces.at(0).content(20, 30, 40).usage(5, 3).build())
        .request(Traces.at(5).content(30, 40, 50).usage(5, 3).build())
        .request(Traces.at(7).scheduledAt(3).content(40, 50, 60).usage(5, 3).build())
        .request(Traces.at(9).content(15).failed(ErrorKind.HTTP_STATUS, 503, "overloaded").end(15).build())
        .build();
  }

  @Test
  void eachLevelJsonCarriesItsLatencyHistogramsInMicroseconds() {
    JsonNode json = ResultJson.read(ResultJson.write(level()));
    JsonNode stored = json.get("llmbench").get("histograms");
    assertThat(stored.get("unit").asText()).isEqualTo("us");
    Map<Metric, Histogram> h = LatencyHistograms.read(stored);
    assertThat(h).containsOnlyKeys(Metric.TTFT, Metric.TTFO, Metric.TPOT, Metric.ITL, Metric.E2E_LATENCY, Metric.QUEUE_TIME);
    Histogram ttft = h.get(Metric.TTFT);
    assertThat(ttft.getTotalCount()).as("successful requests only").isEqualTo(3);
    assertThat(ttft.getMinValue()).isEqualTo(20_000);
    assertThat(ttft.getMaxValue()).isBetween(40_000L, 40_039L); // 3 significant digits
    assertThat(h.get(Metric.ITL).getTotalCount()).isEqualTo(6);
    assertThat(h.get(Metric.ITL).getCountAtValue(10_000)).as("every gap is 10 ms").isEqualTo(6);
    assertThat(h.get(Metric.E2E_LATENCY).getTotalCount()).isEqualTo(3);
    assertThat(h.get(Metric.QUEUE_TIME).getTotalCount()).as("every request sent").isEqualTo(4);
    assertThat(h.get(Metric.QUEUE_TIME).getCountAtValue(4_000)).as("one waited 4 ms").isEqualTo(1);
  }

  /** What makes them mergeable: the histogram of a union of records is the sum of the parts' histograms. */
  @Test
  void theHistogramOfAUnionIsTheSumOfTheParts() {
    List<RequestRecord> all = RequestRecord.allOf(level());
    Map<Metric, Histogram> whole = LatencyHistograms.of(all);
    Map<Metric, Histogram> first = LatencyHistograms.of(all.subList(0, 2));
    Map<Metric, Histogram> second = LatencyHistograms.of(new ArrayList<>(all.subList(2, 4)));
    for (Metric m : whole.keySet()) {
      Histogram sum = LatencyHistograms.decode(LatencyHistograms.encode(first.get(m)));
      sum.add(LatencyHistograms.decode(LatencyHistograms.encode(second.get(m))));
      assertThat(sum).as(m.key()).isEqualTo(whole.get(m));
    }
  }

  @Test
  void textThatIsNotAHistogramSaysSo() {
    assertThatThrownBy(() -> LatencyHistograms.decode("bm90IGEgaGlzdG9ncmFt"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a base64 compressed HdrHistogram");
  }
}
