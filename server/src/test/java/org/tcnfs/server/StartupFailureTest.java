package org.tcnfs.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.BindException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import org.junit.jupiter.api.Test;
import org.tcnfs.server.config.ConfigLoader;
import org.tcnfs.server.config.ServerConfig;
import org.tcnfs.server.config.Setting;

/** Why the server could not start, in one plain line naming the port or path (issue 17). */
class StartupFailureTest {
    private final ServerConfig config = new ConfigLoader().flag(Setting.PORT, "2049")
            .flag(Setting.METRICS_PORT, "9049").load();

    @Test
    void aBusyNfsPortIsNamed() {
        assertThat(StartupFailure.describe(new BindException("Address already in use"), config))
                .isEqualTo("port 2049 on 127.0.0.1 is in use (another server listens there; stop it or choose "
                        + "another port with --port)");
    }

    @Test
    void aBusyMetricsPortIsNamedAsTheMetricsPort() {
        IOException jetty = new IOException("Failed to bind to /127.0.0.1:9049",
                new BindException("Address already in use"));

        assertThat(StartupFailure.describe(jetty, config)).isEqualTo("metrics port 9049 on 127.0.0.1 is in use "
                + "(another server listens there; stop it or choose another port with --metrics-port)");
    }

    @Test
    void aForbiddenPortSaysPermissionDenied() {
        assertThat(StartupFailure.describe(new BindException("Permission denied"), config))
                .isEqualTo("port 2049 on 127.0.0.1: permission denied (ports below 1024 need root or "
                        + "CAP_NET_BIND_SERVICE; choose another with --port)");
    }

    @Test
    void fileProblemsNameThePathAndTheCause() {
        assertThat(StartupFailure.describe(new AccessDeniedException("/var/lib/tcnfs/handles"), config))
                .isEqualTo("/var/lib/tcnfs/handles: permission denied");
        assertThat(StartupFailure.describe(new IllegalStateException("open",
                new NoSuchFileException("/srv/missing")), config))
                .isEqualTo("/srv/missing: no such file or directory");
    }

    @Test
    void aRepeatedLinePrefixIsShownOnce() {
        assertThat(StartupFailure.describe(new IllegalArgumentException(
                "/etc/exports: line 3: line 3: unknown export option 'frob'"), config))
                .isEqualTo("/etc/exports: line 3: unknown export option 'frob'");
    }
}
