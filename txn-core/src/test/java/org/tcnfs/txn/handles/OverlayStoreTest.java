package org.tcnfs.txn.handles;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.lmdbjava.Dbi;

class OverlayStoreTest extends HandleTableTestBase {
    private static final Store NOTHING = new Store.ReadOnly() {
        @Override
        public byte[] get(Dbi<byte[]> dbi, byte[] key) {
            return null;
        }

        @Override
        public void scan(Dbi<byte[]> dbi, byte[] prefix, BiConsumer<byte[], byte[]> action) {
        }
    };

    @Test
    void anOverlayIsEmptyUntilItKeepsARowAndAgainOnceClearedOrMerged() {
        OverlayStore overlay = new OverlayStore(NOTHING);
        assertThat(overlay.isEmpty()).isTrue();
        overlay.delete(table.names, new byte[] {1});
        assertThat(overlay.isEmpty()).isFalse(); // a tombstone is a change
        overlay.put(table.nodes, new byte[] {2}, new byte[] {3});
        assertThat(overlay.size()).isEqualTo(2);

        OverlayStore target = new OverlayStore(NOTHING);
        overlay.mergeInto(target);
        assertThat(overlay.isEmpty()).isTrue();
        assertThat(target.isEmpty()).isFalse();
        assertThat(target.size()).isEqualTo(2);
        target.clear();
        assertThat(target.isEmpty()).isTrue();
        assertThat(target.size()).isZero();
    }
}
