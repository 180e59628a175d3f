package org.tcnfs.proto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The rules of the small values records are made of. */
class ValuesTest {

    @Test
    void relativePathsReadBackWhatTheyPrint() {
        for (String path : List.of("", "a", "a/b/c", "ünïcode/名前/😀", "name with spaces/.hidden/...")) {
            assertThat(RelativePath.of(path).toString()).isEqualTo(path);
        }
        assertThat(RelativePath.of("").isRoot()).isTrue();
        assertThat(RelativePath.of("a/b").parent()).isEqualTo(RelativePath.of("a"));
        assertThat(RelativePath.of("a").parent()).isEqualTo(RelativePath.ROOT);
        assertThat(RelativePath.of("a/b").name()).isEqualTo("b");
        assertThat(RelativePath.of("a").resolve("b")).isEqualTo(RelativePath.of("a", "b"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/a", "a/", "a//b", ".", "..", "a/../b", "a/./b", "a\0b", "\ud800", "a\udc00b"})
    void aPathThatCouldLeaveItsBaseOrIsNotPlainIsRejected(String path) {
        assertThatThrownBy(() -> RelativePath.of(path)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void namesAreLimitedTo255BytesOfUtf8() {
        assertThat(RelativePath.of("x".repeat(255)).name()).hasSize(255);
        assertThatThrownBy(() -> RelativePath.of("x".repeat(256))).isInstanceOf(IllegalArgumentException.class);
        assertThat(RelativePath.of("é".repeat(127)).name()).hasSize(127);
        assertThatThrownBy(() -> RelativePath.of("é".repeat(128))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theRootHasNoParentOrName() {
        assertThatThrownBy(RelativePath.ROOT::parent).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(RelativePath.ROOT::name).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void handlesKeepTheirSixteenBytes() {
        byte[] bytes = new byte[16];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (0xf0 + i);
        }

        assertThat(ObjectHandle.of(bytes).toBytes()).isEqualTo(bytes);
        assertThat(ObjectHandle.of(bytes).toString()).isEqualTo("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff");
        assertThatThrownBy(() -> ObjectHandle.of(new byte[17])).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void savedRangesMustBeNonEmptyAndInRange() {
        RelativePath file = RelativePath.of("0");
        assertThatThrownBy(() -> SavedRange.inBackup(-1, 1, file, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SavedRange.inBackup(0, 0, file, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SavedRange.inBackup(Long.MAX_VALUE, 1, file, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SavedRange.inBackup(0, 2, file, Long.MAX_VALUE))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SavedRange.inBackup(0, 1, RelativePath.ROOT, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SavedRange(0, 3, new SavedRange.Inline(new byte[2])))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("inline data has 2 bytes, the range 3");
    }

    @Test
    void inlineDataIsCopiedInAndOut() {
        byte[] data = {1, 2, 3};
        SavedRange.Inline inline = new SavedRange.Inline(data);

        data[0] = 9;
        inline.data()[1] = 9;

        assertThat(inline.data()).containsExactly(1, 2, 3);
        assertThat(inline).isEqualTo(new SavedRange.Inline(new byte[] {1, 2, 3}));
        assertThat(inline.hashCode()).isEqualTo(new SavedRange.Inline(new byte[] {1, 2, 3}).hashCode());
    }

    @Test
    void restoreRangesRejectsOverlapsAndRangesPastTheOldSize() {
        ObjectRef file = ObjectRef.at(RelativePath.of("f"));
        RelativePath backup = RelativePath.of("0");

        assertThatThrownBy(() -> new UndoStep.RestoreRanges(0, file, 100,
                List.of(SavedRange.inBackup(0, 10, backup, 0), SavedRange.inBackup(5, 10, backup, 10))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("overlaps");
        assertThatThrownBy(() -> new UndoStep.RestoreRanges(0, file, 100,
                List.of(SavedRange.inBackup(20, 10, backup, 0), SavedRange.inBackup(0, 10, backup, 10))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new UndoStep.RestoreRanges(0, file, 15, List.of(SavedRange.inBackup(10, 10, backup, 0))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("past the old size 15");
        assertThat(new UndoStep.RestoreRanges(0, file, 20,
                List.of(SavedRange.inBackup(0, 10, backup, 0), SavedRange.inBackup(10, 10, backup, 10))).ranges())
                .hasSize(2);
    }

    @Test
    void stepsThatRemoveOrRenameNeverNameTheExportRoot() {
        ObjectRef root = ObjectRef.at(RelativePath.ROOT);
        ObjectRef a = ObjectRef.at(RelativePath.of("a"));

        assertThatThrownBy(() -> new UndoStep.RemoveCreated(0, root, ObjectKind.DIRECTORY))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new UndoStep.UnlinkLink(0, root)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new UndoStep.MoveBack(0, root, ObjectKind.REGULAR, RelativePath.of("0")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new UndoStep.RenameBack(0, a, root, Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new UndoStep.RenameBack(0, a, a.withFileId(1), Optional.of(RelativePath.ROOT)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new UndoStep.RestoreSize(-1, a, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThat(new UndoStep.RestoreAttributes(0, root, Attributes.NONE.withMode(0700)).target()).isEqualTo(root);
    }

    @Test
    void restoreAttributesNeedsSomethingToRestore() {
        assertThatThrownBy(() -> new UndoStep.RestoreAttributes(0, ObjectRef.at(RelativePath.of("a")), Attributes.NONE))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void attributesRejectModeBitsBeyond07777AndNegativeSizes() {
        assertThat(Attributes.NONE.withMode(07777).mode()).hasValue(07777);
        assertThatThrownBy(() -> Attributes.NONE.withMode(010000)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Attributes.NONE.withSize(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(Attributes.NONE.isEmpty()).isTrue();
        assertThat(Attributes.NONE.withUid(0).isEmpty()).isFalse();
    }

    @Test
    void aNameThatDidNotExistHasNoObject() {
        ObjectRef known = ObjectRef.at(RelativePath.of("a")).withFileId(3);

        assertThatThrownBy(() -> new PreImage(known, Presence.ABSENT, Optional.empty(), Attributes.NONE))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PreImage(ObjectRef.at(RelativePath.of("a")), Presence.PRESENT, Optional.empty(),
                Attributes.NONE)).isInstanceOf(IllegalArgumentException.class);
        assertThat(PreImage.absent(RelativePath.of("a")).presence()).isEqualTo(Presence.ABSENT);
    }

    @Test
    void txnIdStateAdvancesByBlocksAndNeverWraps() {
        assertThat(TxnIdState.INITIAL.advancedBy(1000).nextTxnIdFloor()).isEqualTo(1001);
        assertThatThrownBy(() -> new TxnIdState(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TxnIdState.INITIAL.advancedBy(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TxnIdState(Long.MAX_VALUE).advancedBy(1)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void lockKeysRejectNul() {
        assertThat(LockKey.write("a/b").mode()).isEqualTo(LockMode.WRITE);
        assertThatThrownBy(() -> LockKey.read("a\0")).isInstanceOf(IllegalArgumentException.class);
    }
}
