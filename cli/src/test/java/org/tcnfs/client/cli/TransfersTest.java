package org.tcnfs.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;

class TransfersTest {
    @Test
    void permissionsOfAModeAreItsPosixBits() {
        assertThat(PosixFilePermissions.toString(Transfers.permissions(0754))).isEqualTo("rwxr-xr--");
        assertThat(PosixFilePermissions.toString(Transfers.permissions(04711))).isEqualTo("rwx--x--x");
        assertThat(Transfers.permissions(0)).isEmpty();
    }

    @Test
    void umaskIsReadFromProcAsOctalBits() {
        assertThat(Transfers.umask()).isBetween(0, 0777);
    }
}
