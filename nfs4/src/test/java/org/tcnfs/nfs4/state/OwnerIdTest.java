package org.tcnfs.nfs4.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Client owners appear in log lines as people read them, and in the client record as hex (issue 17). */
class OwnerIdTest {
    @Test
    void aPrintableOwnerIsLoggedAsItsTextInQuotes() {
        OwnerId linux = new OwnerId("Linux NFSv4.1 host-a".getBytes(StandardCharsets.UTF_8));

        assertThat(linux.toString()).isEqualTo("\"Linux NFSv4.1 host-a\"");
    }

    @Test
    void otherBytesQuotesAndBackslashesAreEscaped() {
        OwnerId odd = new OwnerId(new byte[] {'a', 0, '"', '\\', (byte) 0xff, '\n'});

        assertThat(odd.toString()).isEqualTo("\"a\\x00\\\"\\\\\\xff\\x0a\"");
    }

    @Test
    void aLongOwnerIsCutWithItsLength() {
        OwnerId lengthy = new OwnerId("x".repeat(1000).getBytes(StandardCharsets.UTF_8));

        assertThat(lengthy.toString()).hasSizeLessThan(200).endsWith("...(1000 bytes)\"");
    }

    @Test
    void theHexFormRoundTrips() {
        OwnerId odd = new OwnerId(new byte[] {1, 2, (byte) 0xfe});

        assertThat(odd.hex()).isEqualTo("0102fe");
        assertThat(OwnerId.ofHex(odd.hex())).isEqualTo(odd);
    }
}
