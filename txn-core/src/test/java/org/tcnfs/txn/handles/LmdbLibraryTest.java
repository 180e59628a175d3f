package org.tcnfs.txn.handles;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LmdbLibraryTest {
    @TempDir
    Path dir;

    @Test
    void leftCopiesOfTheLibraryAreDeletedAndNothingElse() throws IOException {
        Files.writeString(dir.resolve(LmdbLibrary.EXTRACTED_PREFIX + "1.so"), "old");
        Files.writeString(dir.resolve(LmdbLibrary.EXTRACTED_PREFIX + "2.so"), "older");
        Files.writeString(dir.resolve("liblmdb.so"), "an operator's own");

        assertThat(LmdbLibrary.deleteLeftCopies(dir)).isEqualTo(2);
        try (var left = Files.list(dir)) {
            assertThat(left.map(p -> p.getFileName().toString())).containsExactly("liblmdb.so");
        }
    }
}
