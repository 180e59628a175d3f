package org.tcnfs.nfs4.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tcnfs.nfs4.status.NfsException;
import org.tcnfs.nfs4.status.NfsStatus;

class NamesTest {

    private static void assertComponentRejected(String name, NfsStatus expected) {
        assertThatThrownBy(() -> Names.checkComponent(name)).isInstanceOf(NfsException.class)
                .satisfies(t -> assertThat(((NfsException) t).status()).isEqualTo(expected));
    }

    private static void assertTargetRejected(byte[] target, NfsStatus expected) {
        assertThatThrownBy(() -> Names.checkLinkTarget(target)).isInstanceOf(NfsException.class)
                .satisfies(t -> assertThat(((NfsException) t).status()).isEqualTo(expected));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a", "file.txt", "...", ".hidden", "..x", "with space", "Grüße", "日本語", "🙂"})
    void ordinaryNamesPass(String name) throws Exception {
        assertThat(Names.checkComponent(name)).isEqualTo(name);
    }

    @Test
    void emptyNameIsInval() {
        assertComponentRejected("", NfsStatus.INVAL);
    }

    @Test
    void invalidUtf8NameIsInval() {
        assertComponentRejected(null, NfsStatus.INVAL);
    }

    @Test
    void dotIsBadName() {
        assertComponentRejected(".", NfsStatus.BADNAME);
    }

    @Test
    void dotDotIsBadName() {
        assertComponentRejected("..", NfsStatus.BADNAME);
    }

    @Test
    void slashIsBadChar() {
        assertComponentRejected("a/b", NfsStatus.BADCHAR);
        assertComponentRejected("/", NfsStatus.BADCHAR);
    }

    @Test
    void nulIsBadChar() {
        assertComponentRejected("a\0b", NfsStatus.BADCHAR);
    }

    @Test
    void nameOf255BytesPassesAnd256IsNameTooLong() throws Exception {
        assertThat(Names.checkComponent("x".repeat(255))).hasSize(255);
        assertComponentRejected("x".repeat(256), NfsStatus.NAMETOOLONG);
    }

    @Test
    void lengthIsCountedInUtf8BytesNotCharacters() throws Exception {
        String twoByte = "ü".repeat(127) + "x"; // 255 bytes, 128 characters
        assertThat(twoByte.getBytes(StandardCharsets.UTF_8)).hasSize(255);
        assertThat(Names.checkComponent(twoByte)).isEqualTo(twoByte);
        assertComponentRejected("ü".repeat(128), NfsStatus.NAMETOOLONG); // 256 bytes, 128 characters
        String fourByte = "🙂".repeat(64); // 256 bytes, 128 chars (surrogate pairs)
        assertComponentRejected(fourByte, NfsStatus.NAMETOOLONG);
        assertThat(Names.checkComponent("🙂".repeat(63) + "xxx")).isNotNull(); // 255 bytes
    }

    @Test
    void linkTargetKeepsSlashesAndDots() throws Exception {
        byte[] target = "../a/./b//c/".getBytes(StandardCharsets.UTF_8);
        assertThat(Names.checkLinkTarget(target)).isEqualTo("../a/./b//c/");
    }

    @Test
    void emptyLinkTargetIsInval() {
        assertTargetRejected(new byte[0], NfsStatus.INVAL);
    }

    @Test
    void linkTargetThatIsNotUtf8IsInval() {
        assertTargetRejected(new byte[] {'a', (byte) 0xff, 'b'}, NfsStatus.INVAL);
    }

    @Test
    void linkTargetWithNulIsBadChar() {
        assertTargetRejected(new byte[] {'a', 0, 'b'}, NfsStatus.BADCHAR);
    }

    @Test
    void linkTargetOver4095BytesIsNameTooLong() throws Exception {
        assertThat(Names.checkLinkTarget("y".repeat(4095).getBytes(StandardCharsets.UTF_8))).hasSize(4095);
        assertTargetRejected("y".repeat(4096).getBytes(StandardCharsets.UTF_8), NfsStatus.NAMETOOLONG);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a", "Grüße", "日本語", "🙂", "a🙂b", "\u07ff\u0800\uffff", "\uD800\uDC00"})
    void theUtf8LengthOfAValidStringIsItsEncodedLength(String s) {
        assertThat(Names.utf8Length(s)).isEqualTo(s.getBytes(StandardCharsets.UTF_8).length);
    }

    @ParameterizedTest
    @ValueSource(strings = {"\uD800", "a\uDC00b", "\uDC00\uD800", "x\uD83D"})
    void aStringWithAnUnpairedSurrogateHasNoUtf8LengthAndIsNoName(String s) {
        assertThat(Names.utf8Length(s)).isEqualTo(-1);
        assertComponentRejected(s, NfsStatus.INVAL);
    }
}
