package org.tcnfs.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link DirectFileOutput}: whatever the sizes of the writes and of the file, the file holds exactly what was written. */
class DirectFileOutputTest {
    @TempDir
    Path dir;

    private void writesExactly(Path file, int size, int piece) throws IOException {
        byte[] data = new byte[size];
        new Random(size).nextBytes(data);
        Files.write(file, new byte[size + 12345]); // an older, longer file is truncated
        try (OutputStream out = DirectFileOutput.create(file)) {
            for (int at = 0; at < size; at += piece) {
                out.write(data, at, Math.min(piece, size - at));
            }
        }
        assertThat(Files.readAllBytes(file)).as("size " + size + " in pieces of " + piece).isEqualTo(data);
    }

    @Test
    void filesOfEverySizeAreWrittenExactlyInAnyPieces() throws IOException {
        int mib = DirectFileOutput.BUFFER;
        for (int size : new int[] {0, 1, 4095, 4096, 4097, mib - 1, mib, mib + 1, 3 * mib + 777}) {
            for (int piece : new int[] {1000, 65536, mib, 3 * mib}) {
                if (size / piece < 5000) {
                    writesExactly(dir.resolve("f-" + size + "-" + piece), size, piece);
                }
            }
        }
    }

    @Test
    void aFileSystemWithoutDirectIoIsWrittenThroughThePageCache() throws IOException {
        Path shm = Path.of("/dev/shm");
        if (!Files.isDirectory(shm)) {
            return; // tmpfs is where O_DIRECT is refused; elsewhere there is nothing to check
        }
        Path d = Files.createTempDirectory(shm, "direct-output-test");
        try {
            writesExactly(d.resolve("f"), 2 * DirectFileOutput.BUFFER + 5, 100_000);
        } finally {
            Files.deleteIfExists(d.resolve("f"));
            Files.delete(d);
        }
    }
}
