package org.tcnfs.nfs4.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class RateLimitedLogTest {
    private final AtomicLong now = new AtomicLong();
    private final RateLimitedLog log = new RateLimitedLog(LoggerFactory.getLogger(RateLimitedLogTest.class), 3,
            Duration.ofSeconds(10), now::get);

    @Test
    void linesBeyondTheShareOfAnIntervalAreCountedNotWritten() {
        assertThat(log.admit()).isZero();
        assertThat(log.admit()).isZero();
        assertThat(log.admit()).isZero();
        for (int i = 0; i < 1000; i++) {
            assertThat(log.admit()).isEqualTo(-1);
        }
        assertThat(log.suppressedTotal()).isEqualTo(1000);
    }

    @Test
    void theFirstLineOfTheNextIntervalSaysHowManyWereLeftOut() {
        for (int i = 0; i < 10; i++) {
            log.admit();
        }
        now.addAndGet(Duration.ofSeconds(10).toNanos());
        assertThat(log.admit()).isEqualTo(7);
        assertThat(log.admit()).isZero();
    }

    @Test
    void theCountGoesBeforeATrailingThrowable() {
        IllegalStateException e = new IllegalStateException("x");
        assertThat(RateLimitedLog.withCount(new Object[] {"a", e}, 5)).containsExactly("a", 5L, e);
        assertThat(RateLimitedLog.withCount(new Object[] {"a"}, 5)).containsExactly("a", 5L);
        assertThat(RateLimitedLog.withCount("bad {}", 5)).isEqualTo("bad {} ({} more like this suppressed)");
        assertThat(RateLimitedLog.withCount("bad {}", 0)).isEqualTo("bad {}");
    }
}
