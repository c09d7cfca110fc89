package dev.llmbench.internal.metrics;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import org.HdrHistogram.Histogram;
import org.apiguardian.api.API;

/** An HdrHistogram as text: its compressed encoding in base64, as JSON documents carry it. */
@API(status = INTERNAL)
public final class HistogramText {

  private HistogramText() {}

  public static String encode(Histogram histogram) {
    ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
    int length = histogram.encodeIntoCompressedByteBuffer(buffer, Deflater.DEFAULT_COMPRESSION);
    return Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length));
  }

  public static Histogram decode(String base64) {
    try {
      return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
    } catch (DataFormatException | IllegalArgumentException e) {
      throw new IllegalArgumentException("not a base64 compressed HdrHistogram: " + e.getMessage(), e);
    }
  }
}
