package org.tcnfs.client.vector.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_LOOKUP;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_PUTFH;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_REMOVE;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_RESTOREFH;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_SAVEFH;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.vector.CompoundTooLargeException;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.nfs_resop4;

class PackerTest {
    private static final byte[] ROOT = new byte[16];

    /** REMOVE of {@code path}'s name in its directory, reached through the emitter. */
    private static Step<Void> remove(String dir, String name) {
        return new Step<>() {
            @Override
            public void emit(Emitter e) {
                e.directory(dir);
                e.ops().remove(name);
            }

            @Override
            public Void decode(List<nfs_resop4> results) {
                return null;
            }
        };
    }

    /** A READ of {@code count} bytes of {@code name} by OPEN, READ, CLOSE (what vread sends), or with a REMOVE. */
    private static Step<Void> read(String name, int count, boolean alsoRemove) {
        return new Step<>() {
            @Override
            public void emit(Emitter e) {
                e.directory("d");
                e.ops().openExisting(1, new byte[] {1}, name, OPEN4args.OPEN4_SHARE_ACCESS_READ).getfh()
                        .read(CompoundBuilder.currentStateid(), 0, count).close(CompoundBuilder.currentStateid());
                if (alsoRemove) {
                    e.ops().remove(name);
                }
            }

            @Override
            public long replyBytes() {
                return 1024L + count;
            }

            @Override
            public Void decode(List<nfs_resop4> results) {
                return null;
            }
        };
    }

    private static int[] opcodes(Packer.Packed p) {
        return Arrays.stream(p.ops().build().argarray).mapToInt(a -> a.argop).toArray();
    }

    @Test
    void secondItemInTheSameDirectoryCostsOneRestorefh() throws CompoundTooLargeException {
        Packer packer = new Packer(ROOT, new Packer.Limits(100, 1 << 20, 1 << 20));

        Packer.Packed p = packer.next(List.of(remove("a/b", "x"), remove("a/b", "y")), 0, "test");

        assertThat(opcodes(p)).containsExactly(OP_PUTFH, OP_LOOKUP, OP_LOOKUP, OP_SAVEFH, OP_REMOVE, OP_RESTOREFH,
                OP_REMOVE);
        assertThat(p.ranges()).hasSize(2);
        assertThat(p.ranges().get(1)).containsExactly(5, 7);
    }

    @Test
    void stepsSplitAtTheOperationLimitAndTheNextCompoundStartsAfresh() throws CompoundTooLargeException {
        Packer packer = new Packer(ROOT, new Packer.Limits(8, 1 << 20, 1 << 20));
        List<Step<Void>> steps = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            steps.add(remove("d", "f" + i));
        }

        Packer.Packed first = packer.next(steps, 0, "test");
        Packer.Packed second = packer.next(steps, first.items(), "test");

        assertThat(first.items()).as("4 + 2 + 2 operations").isEqualTo(3);
        assertThat(opcodes(second)).startsWith(OP_PUTFH, OP_LOOKUP, OP_SAVEFH, OP_REMOVE);
        assertThat(second.firstItem()).isEqualTo(3);
    }

    @Test
    void allRefusesWhatDoesNotFitWithTheTotals() {
        Packer packer = new Packer(ROOT, new Packer.Limits(8, 1 << 20, 1 << 20));
        List<Step<Void>> steps = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            steps.add(remove("d", "f" + i));
        }

        assertThatThrownBy(() -> packer.all(steps, "vremove")).isInstanceOf(CompoundTooLargeException.class)
                .hasMessageContaining("needs 12 operations").hasMessageContaining("allows 8 operations");
    }

    @Test
    void readsThatChangeNothingFillTheUncachedReplyLimit() throws CompoundTooLargeException {
        int mib = 1 << 20;
        Packer packer = new Packer(ROOT, new Packer.Limits(4096, 1 << 20, 16L * mib + 60 * 1024, 4L * mib));
        List<Step<Void>> reads = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            reads.add(read("f" + i, mib, false));
        }

        assertThat(packer.next(reads, 0, "vread").items()).isEqualTo(16);
        assertThat(packer.all(reads, "vread").items()).isEqualTo(16);
    }

    @Test
    void aCompoundThatChangesSomethingKeepsToTheCachedReplyLimit() throws CompoundTooLargeException {
        int mib = 1 << 20;
        Packer packer = new Packer(ROOT, new Packer.Limits(4096, 1 << 20, 16L * mib + 60 * 1024, 4L * mib));
        List<Step<Void>> steps = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            steps.add(read("f" + i, mib, i == 1));
        }

        assertThat(packer.next(steps, 0, "vapply").items()).as("the second item removes: 4 MiB cached").isEqualTo(3);
        assertThatThrownBy(() -> packer.all(steps, "vapply")).isInstanceOf(CompoundTooLargeException.class)
                .hasMessageContaining(String.valueOf(4L * mib));
    }

    @Test
    void anItemLargerThanACompoundIsRefused() {
        Packer packer = new Packer(ROOT, new Packer.Limits(2, 1 << 20, 1 << 20));

        assertThatThrownBy(() -> packer.next(List.of(remove("a/b", "x")), 0, "test"))
                .isInstanceOf(CompoundTooLargeException.class);
    }
}
