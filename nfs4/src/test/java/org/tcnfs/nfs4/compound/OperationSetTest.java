package org.tcnfs.nfs4.compound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.*;

import org.junit.jupiter.api.Test;

class OperationSetTest {
    @Test
    void aSetHoldsExactlyItsNumbersBelowAndAbove64() {
        OperationSet set = OperationSet.of(OP_ACCESS, OP_WRITE, OP_SEQUENCE, OP_CLONE, 127);
        for (int op = -1; op < 200; op++) {
            boolean expected = op == OP_ACCESS || op == OP_WRITE || op == OP_SEQUENCE || op == OP_CLONE || op == 127;
            assertThat(set.contains(op)).as("op %d", op).isEqualTo(expected);
        }
        assertThat(set.contains(OP_ILLEGAL)).isFalse();
        assertThat(set.contains(OP_ACCESS + 64)).isFalse();
    }

    @Test
    void aNumberOutsideZeroTo127CannotBeInASet() {
        assertThatThrownBy(() -> OperationSet.of(OP_ILLEGAL)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OperationSet.of(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
