package org.tcnfs.nfs4.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** Test assertions on NFS statuses, which name the status expected and the one thrown. */
public final class NfsAssertions {
    private NfsAssertions() {
    }

    /** {@code call} throws an {@link NfsException} of status {@code expected}. */
    public static void assertStatus(ThrowingCallable call, NfsStatus expected) {
        assertThatThrownBy(call).isInstanceOfSatisfying(NfsException.class,
                e -> assertThat(e.status()).as(e.getMessage()).isEqualTo(expected));
    }
}
