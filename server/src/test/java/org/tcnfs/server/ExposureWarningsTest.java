package org.tcnfs.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tcnfs.nfs4.export.ClientMatcher;
import org.tcnfs.nfs4.export.Export;
import org.tcnfs.nfs4.export.ExportOptions;
import org.tcnfs.nfs4.export.ExportRule;
import org.tcnfs.server.fs.LocalFileSystem;
import org.tcnfs.txn.handles.HandleTable;

class ExposureWarningsTest {
    @TempDir
    Path dir;

    private List<String> warnings(String bind, ExportOptions options, OptionalInt http) {
        try (HandleTable handles = HandleTable.open(dir.resolve("state"));
                LocalFileSystem fs = LocalFileSystem.open("/", dir, handles)) {
            List<Export> exports = List.of(new Export("/", fs, List.of(
                    new ExportRule(ClientMatcher.parse("10.0.0.0/8"), options),
                    ExportRule.everyone(ExportOptions.DEFAULTS))));
            return ExposureWarnings.of(bind, 2049, exports, http);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void loopbackBindsWarnOfNothing() {
        assertThat(warnings("127.0.0.1", ExportOptions.TRUSTED, OptionalInt.of(9049))).isEmpty();
        assertThat(warnings("::1", ExportOptions.TRUSTED, OptionalInt.of(9049))).isEmpty();
        assertThat(warnings("localhost", ExportOptions.TRUSTED, OptionalInt.of(9049))).isEmpty();
    }

    @Test
    void noRootSquashBeyondLoopbackIsNamedWithItsExportAndClients() {
        List<String> w = warnings("0.0.0.0", ExportOptions.TRUSTED, OptionalInt.empty());

        assertThat(w).hasSize(1);
        assertThat(w.get(0)).contains("export /").contains("10.0.0.0/8").contains("no_root_squash")
                .contains("0.0.0.0:2049");
    }

    @Test
    void httpEndpointsBeyondLoopbackAreAWarning() {
        List<String> w = warnings("192.0.2.7", ExportOptions.DEFAULT_EXPORT, OptionalInt.of(9049));

        assertThat(w).singleElement().asString().contains("HTTP endpoints").contains("192.0.2.7:9049")
                .contains("metrics-port=off");
    }

    @Test
    void squashedExportsWithoutHttpBeyondLoopbackWarnOfNothing() {
        assertThat(warnings("0.0.0.0", ExportOptions.DEFAULT_EXPORT, OptionalInt.empty())).isEmpty();
        assertThat(warnings("0.0.0.0", ExportOptions.DEFAULTS.withSquash(ExportOptions.Squash.ALL_SQUASH),
                OptionalInt.empty())).isEmpty();
    }
}
