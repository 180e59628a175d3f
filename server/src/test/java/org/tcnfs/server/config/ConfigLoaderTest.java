package org.tcnfs.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tcnfs.nfs4.export.ExportOptions;

class ConfigLoaderTest {

    @TempDir
    Path dir;

    @Test
    void defaultsServeDataOnLoopbackPort2049() {
        ServerConfig c = new ConfigLoader().load();
        assertThat(c.bind()).isEqualTo("127.0.0.1");
        assertThat(c.port()).isEqualTo(2049);
        assertThat(c.data()).isEqualTo(Path.of("./data"));
        assertThat(c.state()).isEqualTo(Path.of("./state"));
        assertThat(c.exports()).isEmpty();
        assertThat(c.lease()).isEqualTo(Duration.ofSeconds(90));
        assertThat(c.maxOps()).isEqualTo(4096);
        assertThat(c.maxRequestBytes()).isEqualTo(16 * 1024 * 1024);
    }

    @Test
    void theDefaultExportSquashesRootUnlessAskedNotTo() {
        assertThat(new ConfigLoader().load().dataOptions()).isEqualTo(ExportOptions.DEFAULT_EXPORT);
        assertThat(new ConfigLoader().environment(Map.of("TCNFS_DATA_OPTIONS", "no_root_squash")).load()
                .dataOptions()).isEqualTo(ExportOptions.TRUSTED);
        assertThatThrownBy(() -> new ConfigLoader().flag(Setting.DATA_OPTIONS, "rw,no_squash").load())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("'data-options'")
                .hasMessageContaining("unknown export option 'no_squash'");
    }

    @Test
    void flagsWinOverEnvironmentWhichWinsOverFile() throws IOException {
        Path file = dir.resolve("tcnfs.properties");
        Files.writeString(file, "# a comment\nport=3000\nlease=30s\ngrace=10s\n");
        ServerConfig c = new ConfigLoader()
                .file(file)
                .environment(Map.of("TCNFS_PORT", "4000", "TCNFS_GRACE", "0"))
                .flag(Setting.PORT, "5000")
                .load();
        assertThat(c.port()).isEqualTo(5000);
        assertThat(c.grace()).isZero();
        assertThat(c.lease()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void unknownKeyInFileIsRefusedByName() throws IOException {
        Path file = dir.resolve("bad.properties");
        Files.writeString(file, "prot=3000\n");
        assertThatThrownBy(() -> new ConfigLoader().file(file))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("unknown setting 'prot'");
    }

    @Test
    void portOutOfRangeIsRefusedNamingTheSettingAndSource() {
        assertThatThrownBy(() -> new ConfigLoader().environment(Map.of("TCNFS_PORT", "70000")).load())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("'port'")
                .hasMessageContaining("TCNFS_PORT");
    }

    @Test
    void badDurationAndSizeAreRefused() {
        assertThatThrownBy(() -> new ConfigLoader().flag(Setting.LEASE, "soon").load())
                .hasMessageContaining("'lease'");
        assertThatThrownBy(() -> new ConfigLoader().flag(Setting.MAX_REQUEST, "huge").load())
                .hasMessageContaining("'max-request'");
        assertThatThrownBy(() -> new ConfigLoader().flag(Setting.LEASE, "0").load())
                .hasMessageContaining("'lease'");
    }

    @Test
    void asyncPendingRowsDefaultTo32768AndZeroTurnsThemOffButNegativeIsRefused() {
        assertThat(new ConfigLoader().load().asyncPendingRows()).isEqualTo(32_768);
        assertThat(new ConfigLoader().flag(Setting.ASYNC_PENDING_ROWS, "0").load().asyncPendingRows()).isZero();
        assertThatThrownBy(() -> new ConfigLoader().flag(Setting.ASYNC_PENDING_ROWS, "-1").load())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("'async-pending-rows'");
    }

    @Test
    void backupBudgetsDefaultToOneGibPerTransactionAndFourGibInAll() {
        ServerConfig c = new ConfigLoader().load();
        assertThat(c.backupBudgetPerTxn()).isEqualTo(1L << 30);
        assertThat(c.backupBudgetTotal()).isEqualTo(4L << 30);
        ServerConfig set = new ConfigLoader().flag(Setting.BACKUP_BUDGET_PER_TXN, "64MiB")
                .environment(Map.of("TCNFS_BACKUP_BUDGET_TOTAL", "256MiB")).load();
        assertThat(set.backupBudgetPerTxn()).isEqualTo(64L << 20);
        assertThat(set.backupBudgetTotal()).isEqualTo(256L << 20);
    }

    @Test
    void backupBudgetTotalBelowThePerTransactionBudgetIsRefused() {
        assertThatThrownBy(() -> new ConfigLoader().flag(Setting.BACKUP_BUDGET_PER_TXN, "2GiB")
                .flag(Setting.BACKUP_BUDGET_TOTAL, "1GiB").load())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("'backup-budget-total'");
        assertThatThrownBy(() -> new ConfigLoader().flag(Setting.BACKUP_BUDGET_PER_TXN, "lots").load())
                .hasMessageContaining("'backup-budget-per-txn'");
    }

    @Test
    void sessionLimitsAreReadAndDefaultToBoundedValues() {
        ServerConfig d = new ConfigLoader().load();
        assertThat(d.sessionLimits().maxCachedReplyBytes()).isEqualTo(4160 * 1024);
        assertThat(d.sessionLimits().replyCacheBytes()).isEqualTo(Runtime.getRuntime().maxMemory() / 8);
        ServerConfig c = new ConfigLoader().flag(Setting.MAX_CLIENTS, "8").flag(Setting.MAX_SESSIONS, "4")
                .flag(Setting.MAX_CACHED_REPLY, "64KiB").flag(Setting.REPLY_CACHE_MEMORY, "1MiB")
                .flag(Setting.MAX_OWNERS, "16").load();
        assertThat(c.sessionLimits().maxClients()).isEqualTo(8);
        assertThat(c.sessionLimits().maxSessions()).isEqualTo(4);
        assertThat(c.sessionLimits().maxCachedReplyBytes()).isEqualTo(64 * 1024);
        assertThat(c.sessionLimits().replyCacheBytes()).isEqualTo(1L << 20);
        assertThat(c.sessionLimits().maxOwnersPerClient()).isEqualTo(16);
    }

    @Test
    void replyCacheMemoryThatCannotGiveEverySessionASlotIsRefused() {
        assertThatThrownBy(() -> new ConfigLoader().flag(Setting.MAX_SESSIONS, "1000")
                .flag(Setting.REPLY_CACHE_MEMORY, "1MiB").load())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("'reply-cache-memory'");
    }

    @Test
    void rpcBufferBudgetAndIdleTimeoutDefaultTo64MiBAnd60sAndTheBudgetHoldsAtLeastOneRequest() {
        ServerConfig c = new ConfigLoader().load();
        assertThat(c.rpcBufferBudget()).isEqualTo(64L << 20);
        assertThat(c.rpcIdleTimeout()).isEqualTo(Duration.ofSeconds(60));
        ServerConfig set = new ConfigLoader().flag(Setting.RPC_BUFFER_BUDGET, "256MiB")
                .flag(Setting.RPC_IDLE_TIMEOUT, "5s").load();
        assertThat(set.rpcBufferBudget()).isEqualTo(256L << 20);
        assertThat(set.rpcIdleTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThatThrownBy(() -> new ConfigLoader().flag(Setting.RPC_BUFFER_BUDGET, "1MiB").load())
                .hasMessageContaining("'rpc-buffer-budget'")
                .hasMessageContaining("at least max-request");
        assertThatThrownBy(() -> new ConfigLoader().flag(Setting.RPC_IDLE_TIMEOUT, "0").load())
                .hasMessageContaining("'rpc-idle-timeout'");
    }

    @Test
    void missingExportsFileIsRefused() {
        assertThatThrownBy(() -> new ConfigLoader().flag(Setting.EXPORTS, dir.resolve("nope").toString()).load())
                .hasMessageContaining("'exports'")
                .hasMessageContaining("no such file");
    }

    @Test
    void sizesAndDurationsAcceptUnits() {
        ServerConfig c = new ConfigLoader()
                .flag(Setting.MAX_REQUEST, "2MiB")
                .flag(Setting.MAX_IO, "64KiB")
                .flag(Setting.LEASE, "PT2M")
                .load();
        assertThat(c.maxRequestBytes()).isEqualTo(2 * 1024 * 1024);
        assertThat(c.maxIoBytes()).isEqualTo(64 * 1024);
        assertThat(c.lease()).isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void metricsEndpointsListenOnPort9049ByDefault() {
        ServerConfig c = new ConfigLoader().load();
        assertThat(c.metricsPort()).hasValue(9049);
        assertThat(c.metricsPortFile()).isEmpty();
    }

    @Test
    void metricsPortOffTurnsTheEndpointsOffAndZeroPicksAnyPort() throws IOException {
        assertThat(new ConfigLoader().environment(Map.of("TCNFS_METRICS_PORT", "OFF")).load().metricsPort()).isEmpty();
        Path file = dir.resolve("tcnfs.properties");
        Files.writeString(file, "metrics-port=0\nmetrics-port-file=" + dir.resolve("mport") + "\n");
        ServerConfig c = new ConfigLoader().file(file).load();
        assertThat(c.metricsPort()).hasValue(0);
        assertThat(c.metricsPortFile()).contains(dir.resolve("mport"));
    }

    @Test
    void badMetricsPortsAreRefusedNamingTheSetting() {
        for (String bad : new String[] {"70000", "-1", "none", ""}) {
            assertThatThrownBy(() -> new ConfigLoader().environment(Map.of("TCNFS_METRICS_PORT", bad)).load())
                    .as("metrics-port=%s", bad)
                    .isInstanceOf(InvalidConfigException.class)
                    .hasMessageContaining("'metrics-port'")
                    .hasMessageContaining("TCNFS_METRICS_PORT");
        }
    }

    @Test
    void metricsPortEqualToTheNfsPortIsRefused() {
        assertThatThrownBy(() -> new ConfigLoader().flag(Setting.PORT, "9049").load())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("'metrics-port'")
                .hasMessageContaining("must differ from 'port'");
        assertThat(new ConfigLoader().flag(Setting.PORT, "0").flag(Setting.METRICS_PORT, "0").load().port())
                .as("two ephemeral ports do not clash").isZero();
    }

    @Test
    void metricsPortFileWithTheEndpointsOffIsRefused() {
        assertThatThrownBy(() -> new ConfigLoader().flag(Setting.METRICS_PORT, "off")
                .flag(Setting.METRICS_PORT_FILE, dir.resolve("mport").toString()).load())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("'metrics-port-file'");
    }

    @Test
    void valueFromAnEmbeddingProgramIsRefusedNamingItsSource() {
        ConfigLoader loader = new ConfigLoader().value(Setting.WORKERS, "many", "TcnfsServer.Builder.workers");
        assertThatThrownBy(loader::load)
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("'workers'")
                .hasMessageContaining("TcnfsServer.Builder.workers");
    }
}
