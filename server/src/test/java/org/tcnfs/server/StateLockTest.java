package org.tcnfs.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StateLockTest {
    @TempDir
    Path state;

    @Test
    void theLockFileNamesItsHolder() throws Exception {
        try (StateLock lock = StateLock.acquire(state)) {
            String text = Files.readString(lock.file(), StandardCharsets.UTF_8);
            assertThat(text).contains("pid=" + ProcessHandle.current().pid()).contains("host=").contains("started=");
            assertThat(StateLock.holderOf(state)).get().extracting(StateLock.Holder::pid)
                    .isEqualTo(Long.toString(ProcessHandle.current().pid()));
        }
    }

    @Test
    void aSecondLockIsRefusedWithTheHolderInTheMessage() throws Exception {
        try (StateLock first = StateLock.acquire(state)) {
            assertThatThrownBy(() -> StateLock.acquire(state))
                    .isInstanceOf(StateLock.InUseException.class)
                    .hasMessageContaining("is in use by tcnfs pid " + ProcessHandle.current().pid() + " on host ")
                    .hasMessageNotContaining("\n");
            assertThatThrownBy(() -> StateLock.acquireForReading(state)).isInstanceOf(StateLock.InUseException.class);
        }
    }

    @Test
    void theLockIsFreeAgainAfterClose() throws Exception {
        StateLock.acquire(state).close();
        try (StateLock again = StateLock.acquire(state)) {
            assertThat(again.file()).exists();
        }
        Optional<StateLock> reading = StateLock.acquireForReading(state);
        assertThat(reading).isPresent();
        reading.get().close();
    }

    @Test
    void lockingForReadingCreatesNothing() throws Exception {
        Optional<StateLock> lock = StateLock.acquireForReading(state);

        assertThat(lock).isEmpty();
        try (var files = Files.list(state)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void lockingForReadingLeavesTheHolderRecordAlone() throws Exception {
        StateLock.acquire(state).close();
        String before = Files.readString(state.resolve(StateLock.FILE_NAME));

        StateLock.acquireForReading(state).orElseThrow().close();

        assertThat(Files.readString(state.resolve(StateLock.FILE_NAME))).isEqualTo(before);
    }
}
