package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.it.TestData.randomBytes;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.vector.Mode;
import org.tcnfs.client.vector.VRead;
import org.tcnfs.client.vector.VResult;

/**
 * Reads whose replies are larger than the reply cache a session is granted ({@code ca_maxresponsesize_cached},
 * 4 MiB + 64 KiB by default) against the real server with its default limits: a compound that changes nothing,
 * a read-only transaction included, is sent uncached and may fill the whole {@code ca_maxresponsesize}; plain
 * reads larger than that are split over compounds.
 */
class ReadOnlyTransactionReplyIT extends VectorClientTest {
    private static final int MIB = 1024 * 1024;
    private List<VRead> files(int count, int size) throws IOException {
        List<VRead> reads = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Files.write(remote.resolve("f" + i), randomBytes(size, i));
            reads.add(VRead.whole(path + "/f" + i));
        }
        return reads;
    }

    @Test
    void transactionalReadOfSixteenMibFilesIsOneUncachedCompound() throws IOException {
        List<VRead> reads = files(16, MIB);

        VResult<byte[]> r = nfs.vread(reads, Mode.TRANSACTION);

        assertThat(r.isOk()).as("%s", r).isTrue();
        assertThat(r.committed()).isTrue();
        assertThat(r.compounds()).as("one transactional compound, its reply uncached").isEqualTo(1);
        for (int i = 0; i < 16; i++) {
            assertThat(r.value(i)).as("file %d", i).isEqualTo(randomBytes(MIB, i));
        }
    }

    @Test
    void plainReadLargerThanOneReplyIsSplitOverCompounds() throws IOException {
        List<VRead> reads = files(20, MIB);

        VResult<byte[]> r = nfs.vread(reads, Mode.PLAIN);

        assertThat(r.isOk()).as("%s", r).isTrue();
        assertThat(r.compounds()).as("20 MiB in replies of at most ~16 MiB").isEqualTo(2);
        for (int i = 0; i < 20; i++) {
            assertThat(r.value(i)).as("file %d", i).isEqualTo(randomBytes(MIB, i));
        }
    }

    @Test
    void transactionalReadLargerThanOneReplySpansCompoundsAndCommits() throws IOException {
        List<VRead> reads = files(20, MIB);

        VResult<byte[]> r = nfs.vread(reads, Mode.TRANSACTION);

        assertThat(r.isOk()).as("%s", r).isTrue();
        assertThat(r.committed()).isTrue();
        for (int i = 0; i < 20; i++) {
            assertThat(r.value(i)).as("file %d", i).isEqualTo(randomBytes(MIB, i));
        }
    }
}
