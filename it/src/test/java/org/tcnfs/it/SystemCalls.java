package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The system calls a real server process makes while a test's step runs ({@code strace -f -c} attached to every thread
 * of the server before the step and detached after it), by name: for tests that count the file-system work of an
 * operation. A few of the server's own timers may fall into the window, so tests compare with margins.
 */
final class SystemCalls {
    private SystemCalls() {
    }

    /** What a test measures: one or more compounds sent to the server. */
    @FunctionalInterface
    interface Step {
        void run() throws IOException;
    }

    /** Whether strace is there to count with. */
    static boolean available() {
        return Files.isExecutable(Path.of("/usr/bin/strace"));
    }

    /**
     * The calls named in {@code calls} (strace's {@code -e trace=} list, e.g. {@code statx,openat}) that every thread of
     * {@code server} made while {@code step} ran, by name.
     */
    static Map<String, Long> of(ServerProcess server, String calls, Step step) throws IOException,
            InterruptedException {
        Path out = Files.createTempFile("tcnfs-strace-", ".txt");
        Process strace = new ProcessBuilder("strace", "-f", "-c", "-e", "trace=" + calls, "-o", out.toString(), "-p",
                Long.toString(server.pid())).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            Thread.sleep(1500); // attached to every thread
            step.run();
        } finally {
            strace.toHandle().destroy(); // SIGTERM: strace detaches and writes its summary
            assertThat(strace.waitFor(30, TimeUnit.SECONDS)).as("strace ended").isTrue();
        }
        Map<String, Long> counted = new HashMap<>();
        for (String line : Files.readAllLines(out)) {
            String[] f = line.trim().split("\\s+");
            // % time, seconds, usecs/call, calls, [errors,] syscall
            if (f.length >= 5 && f[0].matches("[0-9.]+") && f[3].matches("[0-9]+")) {
                counted.put(f[f.length - 1], Long.parseLong(f[3]));
            }
        }
        Files.deleteIfExists(out);
        return counted;
    }
}
