package dev.llmbench.launch;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.testcontainers.containers.output.OutputFrame;

/** Writes each frame of the container's output to the log file as Docker delivers it; notes the stream's end. */
final class ContainerLogWriter {

  private final Path file;
  private final OutputStream out;
  private final CountDownLatch ended = new CountDownLatch(1);
  private boolean closed;
  private boolean failed;

  private ContainerLogWriter(Path file, OutputStream out) {
    this.file = file;
    this.out = out;
  }

  static ContainerLogWriter open(Path file) {
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) Files.createDirectories(parent);
      return new ContainerLogWriter(file, Files.newOutputStream(file)); // replaced, as a launched process's log is
    } catch (IOException e) {
      throw new ServerLaunchException("cannot write the container's log " + file + ": " + e, e);
    }
  }

  Path file() {
    return file;
  }

  synchronized void accept(OutputFrame frame) {
    if (frame.getType() == OutputFrame.OutputType.END) {
      ended.countDown();
      return;
    }
    byte[] bytes = frame.getBytes();
    if (closed || failed || bytes == null) return;
    try {
      out.write(bytes);
      out.flush(); // the tail reads the file: each line as it comes
    } catch (IOException e) {
      failed = true; // a full disk must not stop the server; the log simply ends
    }
  }

  void awaitEnd(Duration limit) {
    try {
      ended.await(limit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  synchronized void close() {
    if (closed) return;
    closed = true;
    try {
      out.close();
    } catch (IOException ignored) {
      // Everything written was flushed line by line.
    }
  }
}
