package org.tcnfs.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TcnfsMetricsTest {
    private final TcnfsMetrics metrics = TcnfsMetrics.create();

    @AfterEach
    void close() {
        metrics.close();
    }

    @Test
    void meterNamesOutsideTheTcnfsPrefixAreRefused() {
        assertThatThrownBy(() -> metrics.counter("txn.committed", "x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tcnfs.");
        assertThatThrownBy(() -> metrics.counter("tcnfs.", "x")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void registeringTheSameCounterTwiceGivesTheSameCounter() {
        metrics.counter("tcnfs.txn.committed", "Transactions committed").increment();
        metrics.counter("tcnfs.txn.committed", "Transactions committed").increment(2);

        assertThat(metrics.scrape()).contains("tcnfs_txn_committed_total 3");
    }

    @Test
    void gaugesAreReadWhenScraped() {
        AtomicInteger value = new AtomicInteger(5);
        metrics.gauge("tcnfs.sessions", "Open sessions", null, value::get);
        assertThat(metrics.scrape()).contains("tcnfs_sessions 5");

        value.set(7);

        assertThat(metrics.scrape()).contains("tcnfs_sessions 7");
    }

    @Test
    void timersHaveLatencyBucketsInSeconds() {
        metrics.timer("tcnfs.lock.wait", "Time waiting for locks").record(java.time.Duration.ofMillis(3));

        assertThat(metrics.scrape())
                .contains("tcnfs_lock_wait_seconds_bucket{le=\"0.0025\"} 0")
                .contains("tcnfs_lock_wait_seconds_bucket{le=\"0.005\"} 1")
                .contains("tcnfs_lock_wait_seconds_count 1");
    }

    @Test
    void byteCountersEndInBytesTotal() {
        metrics.byteCounter("tcnfs.backup", "Bytes backed up", "method", "clone").increment(4096);

        assertThat(metrics.scrape()).contains("tcnfs_backup_bytes_total{method=\"clone\"} 4096");
    }
}
