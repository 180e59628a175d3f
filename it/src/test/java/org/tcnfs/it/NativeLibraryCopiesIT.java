package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server killed again and again leaves no copies of LMDB's native library behind: lmdbjava extracts it into the
 * state directory, where each start deletes what the killed one left, not into the temporary directory.
 */
class NativeLibraryCopiesIT {
    @TempDir
    Path tmp;

    @Test
    void threeKilledStartsLeaveNoCopyInTheTemporaryDirectoryAndOneInTheStateDirectory() throws IOException {
        try (ServerProcess server = ServerProcess.start(List.of("-Djava.io.tmpdir=" + tmp))) {
            for (int start = 1; start < 3; start++) {
                server.kill();
                server.restart();
            }
            server.kill();

            assertThat(copiesIn(tmp)).isEmpty();
            assertThat(copiesIn(server.stateDir())).hasSize(1);
        }
    }

    /** The copies lmdbjava extracted anywhere under {@code directory}. */
    private static List<Path> copiesIn(Path directory) throws IOException {
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(f -> f.getFileName().toString().startsWith("lmdbjava-native-library-")).toList();
        }
    }
}
