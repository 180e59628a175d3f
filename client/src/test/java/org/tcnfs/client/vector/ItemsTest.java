package org.tcnfs.client.vector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.status.NoEntException;

class ItemsTest {

    @Test
    void createWriteCreatesAndTruncates() {
        VWrite w = VWrite.create("/d/f", new byte[] {1, 2});
        assertThat(w.path()).isEqualTo("d/f");
        assertThat(w.flags()).containsExactlyInAnyOrder(WriteFlag.CREATE, WriteFlag.TRUNCATE);
        assertThat(w.mode()).isEqualTo(0644);
    }

    @Test
    void writeCopiesItsData() {
        byte[] data = {1, 2, 3};
        VWrite w = VWrite.at("f", 0, data);
        data[0] = 9;
        assertThat(w.data()).containsExactly(1, 2, 3);
    }

    @Test
    void exclusiveImpliesCreate() {
        VWrite w = new VWrite("f", 0, new byte[0], Set.of(WriteFlag.EXCLUSIVE), 0600);
        assertThat(w.has(WriteFlag.CREATE)).isTrue();
    }

    @Test
    void theRootCannotBeWrittenRemovedOrRenamed() {
        assertThatThrownBy(() -> VWrite.create("/", new byte[0])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new VRemove("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new VRename("/", "x")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void modesOutsideTwelveBitsAreRefused() {
        assertThatThrownBy(() -> new VMkdir("d", 010000)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> VSetattr.mode("f", -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void itemResultStatusMatchesItsOutcome() {
        assertThatThrownBy(() -> new ItemResult<Void>(Outcome.FAILED, NfsStatus.OK, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ItemResult<Void>(Outcome.NOT_RUN, NfsStatus.NOENT, null))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void orThrowRaisesTheFirstFailuresStatus() {
        VResult<Void> r = new VResult<>(List.of(ItemResult.done(null), ItemResult.failed(NfsStatus.NOENT),
                ItemResult.notRun()), 1, false, Mode.PLAIN, 1);
        assertThat(r.isOk()).isFalse();
        assertThatThrownBy(r::orThrow).isInstanceOf(NoEntException.class).hasMessageContaining("item 1");
    }

    @Test
    void concatShiftsTheFirstFailureAndSumsCompounds() {
        VResult<Void> a = new VResult<>(List.of(ItemResult.done(null), ItemResult.done(null)), -1, true, Mode.PLAIN, 2);
        VResult<Void> b = new VResult<>(List.of(ItemResult.failed(NfsStatus.EXIST)), 0, false, Mode.PLAIN, 1);

        VResult<Void> all = VResult.concat(List.of(a, b), Mode.PLAIN);

        assertThat(all.firstFailure()).isEqualTo(2);
        assertThat(all.compounds()).isEqualTo(3);
        assertThat(all.committed()).isFalse();
    }
}
