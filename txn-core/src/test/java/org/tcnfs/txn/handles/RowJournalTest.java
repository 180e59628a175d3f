package org.tcnfs.txn.handles;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file format, replay rules and bounds of the {@link RowJournal}. */
class RowJournalTest {
    private static final long SIZE = 4096;

    @TempDir
    Path dir;

    private Path file() {
        return dir.resolve("rows.journal");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static long append(RowJournal journal, String payload) throws IOException {
        return journal.append(bytes(payload), () -> true);
    }

    private List<String> replayed() throws IOException {
        return RowJournal.read(file()).stream().map(e -> e.sequence() + ":" + new String(e.payload(),
                StandardCharsets.UTF_8)).toList();
    }

    private void overwrite(long at, byte[] with) throws IOException {
        try (FileChannel ch = FileChannel.open(file(), StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(with), at);
        }
    }

    @Test
    void recordsRoundTripInOrderWithTheirSequenceNumbers() throws IOException {
        try (RowJournal journal = RowJournal.open(file(), SIZE, 7)) {
            assertThat(append(journal, "a")).isEqualTo(7);
            assertThat(append(journal, "bc")).isEqualTo(8);
            long third = append(journal, "");
            journal.flush(third);
            assertThat(journal.flushCount()).isEqualTo(1);
        }
        assertThat(replayed()).containsExactly("7:a", "8:bc", "9:");
    }

    @Test
    void aFreshJournalIsWrittenWithZerosToItsFullSizeAndNeverGrows() throws IOException {
        try (RowJournal journal = RowJournal.open(file(), SIZE, 1)) {
            assertThat(Files.size(file())).isEqualTo(SIZE);
            byte[] payload = new byte[1000];
            int appended = 0;
            while (journal.append(payload, () -> true) >= 0) {
                appended++;
            }
            assertThat(appended).isEqualTo(4); // 4 x 1016 bytes of 4096
            assertThat(journal.append(payload, () -> true)).isEqualTo(RowJournal.NO_ROOM);
            assertThat(journal.append(new byte[(int) SIZE], () -> true)).isEqualTo(RowJournal.TOO_LARGE);
            assertThat(Files.size(file())).isEqualTo(SIZE);
        }
        try (FileChannel ch = FileChannel.open(file(), StandardOpenOption.READ)) {
            ByteBuffer tail = ByteBuffer.allocate(16);
            ch.read(tail, SIZE - 16);
            assertThat(tail.array()).containsOnly(0);
        }
    }

    @Test
    void aRefusedPublishWritesNothingAndTakesNoSequenceNumber() throws IOException {
        try (RowJournal journal = RowJournal.open(file(), SIZE, 1)) {
            assertThat(journal.append(bytes("x"), () -> false)).isEqualTo(RowJournal.REFUSED);
            assertThat(append(journal, "y")).isEqualTo(1);
            journal.fail();
            assertThat(append(journal, "z")).isEqualTo(RowJournal.REFUSED);
        }
        assertThat(replayed()).containsExactly("1:y");
    }

    @Test
    void aRecordWithABadChecksumEndsTheReplay() throws IOException {
        try (RowJournal journal = RowJournal.open(file(), SIZE, 1)) {
            append(journal, "one");
            append(journal, "two");
            append(journal, "three");
        }
        overwrite(RowJournal.HEADER + 3 + RowJournal.HEADER, bytes("TWO"));
        assertThat(replayed()).containsExactly("1:one");
    }

    @Test
    void aTornOrZeroedRecordEndsTheReplay() throws IOException {
        try (RowJournal journal = RowJournal.open(file(), SIZE, 1)) {
            append(journal, "one");
            append(journal, "two");
            append(journal, "three");
        }
        // the second record's header zeroed, as a write the cut never let reach the disk
        overwrite(RowJournal.HEADER + 3, new byte[RowJournal.HEADER]);
        assertThat(replayed()).containsExactly("1:one");
        // the first record's payload half written
        overwrite(RowJournal.HEADER + 1, new byte[2]);
        assertThat(replayed()).isEmpty();
    }

    @Test
    void aClaimedLengthBeyondTheFileIsRefusedWithoutAllocating() throws IOException {
        try (RowJournal journal = RowJournal.open(file(), SIZE, 1)) {
            append(journal, "one");
            append(journal, "two");
        }
        overwrite(RowJournal.HEADER + 3, ByteBuffer.allocate(4).putInt(Integer.MAX_VALUE).array());
        assertThat(replayed()).containsExactly("1:one");
        overwrite(0, ByteBuffer.allocate(4).putInt(-5).array());
        assertThat(replayed()).isEmpty();
    }

    @Test
    void afterAWrapTheOlderRecordsBehindTheNewOnesAreNotReplayed() throws IOException {
        try (RowJournal journal = RowJournal.open(file(), SIZE, 1)) {
            append(journal, "first lap, one");
            append(journal, "first lap, two");
            long third = append(journal, "first lap, three");
            journal.applied(third - 1);
            assertThat(journal.offset()).isGreaterThan(0); // a record not yet applied: no wrap
            journal.applied(third);
            assertThat(journal.offset()).isZero();
            assertThat(append(journal, "lap 2")).isEqualTo(4);
        }
        assertThat(replayed()).containsExactly("4:lap 2");
    }

    @Test
    void theFirstSequenceAfterARestartIsAboveAnyRecordTheFileCanHold() throws IOException {
        try (RowJournal journal = RowJournal.open(file(), SIZE, 1)) {
            for (int i = 0; i < 10; i++) {
                append(journal, "r" + i);
            }
        }
        // a record in the middle lost (the cut): the ones after it hold sequence numbers above the replayed run
        overwrite(RowJournal.HEADER + 2, new byte[4]);
        List<RowJournal.Entry> run = RowJournal.read(file());
        assertThat(run).hasSize(1);
        long next = RowJournal.firstSequenceAfter(run.get(0).sequence(), SIZE);
        assertThat(next).isGreaterThan(10).isEqualTo(1 + SIZE / RowJournal.HEADER + 1);
    }

    @Test
    void aFlushStartedAfterARecordWasWrittenServesItsLaterCallers() throws IOException {
        try (RowJournal journal = RowJournal.open(file(), SIZE, 1)) {
            long a = append(journal, "a");
            long b = append(journal, "b");
            journal.flush(b);
            journal.flush(a);
            assertThat(journal.flushCount()).isEqualTo(1);
            journal.flush(append(journal, "c"));
            assertThat(journal.flushCount()).isEqualTo(2);
        }
    }
}
