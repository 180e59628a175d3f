package org.tcnfs.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ServerStatusTest {

    @Test
    void stringsAreEscapedAsJson() {
        assertThat(ServerStatus.quote("a\"b\\c\nd\te\u0001")).isEqualTo("\"a\\\"b\\\\c\\nd\\te\\u0001\"");
    }

    @Test
    void unknownHandleTableSizeIsLeftOut() {
        ServerStatus s = new ServerStatus("dev", Instant.EPOCH, Duration.ZERO, "0.0.0.0", 2049,
                List.of(new ServerStatus.ExportStatus("/srv/a b", "/srv/a b", List.of("10.0.0.0/8(rw)", "*(ro)"))),
                0, 0, true, OptionalLong.empty(), 0);

        assertThat(s.toJson()).doesNotContain("handle_table_bytes")
                .contains("\"in_grace\":true")
                .contains("\"rules\":[\"10.0.0.0/8(rw)\",\"*(ro)\"]");
    }
}
