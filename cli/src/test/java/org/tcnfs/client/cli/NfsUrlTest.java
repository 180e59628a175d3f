package org.tcnfs.client.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class NfsUrlTest {

    @Test
    void hostPortAndPathAreParsed() {
        NfsUrl u = NfsUrl.parse("nfs://server:20490/export/dir%20x/");
        assertThat(u.host()).isEqualTo("server");
        assertThat(u.port()).isEqualTo(20490);
        assertThat(u.path()).isEqualTo("export/dir x");
    }

    @Test
    void portDefaultsTo2049AndTheRootIsEmpty() {
        NfsUrl u = NfsUrl.parse("nfs://10.0.0.1/");
        assertThat(u.port()).isEqualTo(2049);
        assertThat(u.path()).isEmpty();
        assertThat(u.toString()).isEqualTo("nfs://10.0.0.1/");
    }

    @Test
    void otherSchemesAndDotDotAreRefused() {
        assertThatThrownBy(() -> NfsUrl.parse("http://x/")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> NfsUrl.parse("nfs://x/a/../b")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> NfsUrl.parse("nfs:///nohost")).isInstanceOf(IllegalArgumentException.class);
    }
}
