package org.tcnfs.txn.handles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.vfs.FileType;

/** Node rows decode to what was encoded, whatever export they belong to, and a cut row is corrupt. */
class CodecTest {
    private static Node node(String exportId, String... names) {
        Nfh parent = Nfh.random();
        return new Node(Nfh.random(), exportId, FileType.REGULAR, 7, 42, 99,
                Arrays.stream(names).map(n -> new Link(parent, n)).toList());
    }

    @Test
    void nodesOfSeveralExportsDecodeToWhatWasEncoded() {
        for (Node node : List.of(node("data", "a"), node("home", "b", "ä ü"), node("data", "c"), node("x", "d"))) {
            assertThat(Codec.decode(node.handle(), Codec.encode(node))).isEqualTo(node);
        }
    }

    @Test
    void aNodeRowCutShortIsCorruptWhereverItIsCut() {
        Node node = node("data", "some name");
        byte[] row = Codec.encode(node);
        Codec.decode(node.handle(), row);
        for (int length = 0; length < row.length; length++) {
            byte[] cut = Arrays.copyOf(row, length);
            assertThatThrownBy(() -> Codec.decode(node.handle(), cut)).isInstanceOf(HandleTableException.class);
        }
    }
}
