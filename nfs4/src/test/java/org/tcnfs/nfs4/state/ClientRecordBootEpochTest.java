package org.tcnfs.nfs4.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The boot epoch each start takes from the record directory: never one a previous start had. */
class ClientRecordBootEpochTest {
    private static final long NOW = 1_700_000_000L;

    @TempDir
    Path dir;

    private long start(long nowSeconds) throws Exception {
        return ClientRecord.open(dir).nextBootEpoch(nowSeconds);
    }

    @Test
    void theFirstStartTakesTheClockSecond() throws Exception {
        assertThat(start(NOW)).isEqualTo(NOW);
        assertThat(Files.readString(dir.resolve("boot-epoch"), StandardCharsets.UTF_8).trim()).isEqualTo("" + NOW);
    }

    @Test
    void restartsWithinTheSameSecondTakeTheNextEpochs() throws Exception {
        assertThat(start(NOW)).isEqualTo(NOW);
        assertThat(start(NOW)).isEqualTo(NOW + 1);
        assertThat(start(NOW)).isEqualTo(NOW + 2);
        assertThat(start(NOW + 10)).as("a later second is taken as it is").isEqualTo(NOW + 10);
    }

    @Test
    void aClockSetBackStillGivesALaterEpoch() throws Exception {
        start(NOW);
        assertThat(start(NOW - 3600)).isEqualTo(NOW + 1);
    }

    @Test
    void aDamagedRecordStartsFromTheClock() throws Exception {
        Files.writeString(dir.resolve("boot-epoch"), "not a number\n");
        assertThat(start(NOW)).isEqualTo(NOW);
        Files.writeString(dir.resolve("boot-epoch"), "99999999999999999999\n");
        assertThat(start(NOW)).isEqualTo(NOW);
        assertThat(start(NOW)).isEqualTo(NOW + 1);
    }
}
