package org.tcnfs.nfs4.status;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which status exceptions record a stack trace ({@link NfsException}'s class javadoc). */
class NfsExceptionTraceTest {
    @Test
    void aStatusThatAnswersAClientCarriesNoStackTrace() {
        assertThat(new NoEntException("lstat /x: ENOENT").getStackTrace()).isEmpty();
        assertThat(new ExistException("x", new IllegalStateException()).getStackTrace()).isEmpty();
        assertThat(NfsExceptions.of(NfsStatus.STALE, "gone").getStackTrace()).isEmpty();
    }

    @Test
    void aServerFaultKeepsItsStackTraceAndItsCausesTrace() {
        RuntimeException cause = new IllegalStateException("broken");
        ServerFaultException fault = new ServerFaultException("failed", cause);

        assertThat(fault.getStackTrace()).isNotEmpty();
        assertThat(fault.getCause().getStackTrace()).isNotEmpty();
        assertThat(new ServerFaultException().getStackTrace()).isNotEmpty();
    }

    @Test
    void anIoErrorKeepsItsStackTrace() {
        assertThat(new IoException("read failed").getStackTrace()).isNotEmpty();
        assertThat(NfsExceptions.of(NfsStatus.IO, "read failed").getStackTrace()).isNotEmpty();
    }

    @Test
    void aCauseOfAClientStatusKeepsItsOwnTrace() {
        RuntimeException cause = new IllegalArgumentException("bad");
        assertThat(new InvalException("x", cause).getCause().getStackTrace()).isNotEmpty();
    }
}
