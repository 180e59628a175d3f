package org.tcnfs.nfs4.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.export.ExportOptions.Squash;
import org.tcnfs.nfs4.vfs.Credential;

class ExportOptionsTest {
    private static final Credential ALICE = new Credential(1000, 100, new int[] {0, 5});
    private static final Credential ROOT = new Credential(0, 0, new int[] {0, 7});

    @Test
    void defaultsAreReadOnlyRootSquashNobodyAndSys() {
        ExportOptions d = ExportOptions.DEFAULTS;
        assertThat(d.isReadOnly()).isTrue();
        assertThat(d.squash()).isEqualTo(Squash.ROOT_SQUASH);
        assertThat(d.anonUid()).isEqualTo(65534);
        assertThat(d.anonGid()).isEqualTo(65534);
        assertThat(d.security()).containsExactly(ExportOptions.SecurityFlavor.SYS);
        assertThat(d.txn()).isEqualTo(ExportOptions.TxnPolicy.REQUEST);
    }

    @Test
    void rootSquashMapsRootToAnonymousAndGroupZeroToAnonymousGid() {
        ExportOptions options = ExportOptions.DEFAULTS.withAnonymous(99, 98);
        Credential root = options.squash(ROOT);
        assertThat(root.uid()).isEqualTo(99);
        assertThat(root.gid()).isEqualTo(98);
        assertThat(root.groups()).containsExactly(98, 7);
        Credential alice = options.squash(ALICE);
        assertThat(alice.uid()).isEqualTo(1000);
        assertThat(alice.gid()).isEqualTo(100);
        assertThat(alice.groups()).containsExactly(98, 5);
    }

    @Test
    void rootSquashLeavesOrdinaryUsersAlone() {
        Credential bob = new Credential(1001, 100, new int[] {5});
        assertThat(ExportOptions.DEFAULTS.squash(bob)).isEqualTo(bob);
    }

    @Test
    void noRootSquashKeepsEveryone() {
        ExportOptions options = ExportOptions.DEFAULTS.withSquash(Squash.NO_ROOT_SQUASH);
        assertThat(options.squash(ROOT)).isEqualTo(ROOT);
        assertThat(options.squash(ALICE)).isEqualTo(ALICE);
    }

    @Test
    void allSquashMapsEveryoneAndDropsGroups() {
        ExportOptions options = ExportOptions.DEFAULTS.withSquash(Squash.ALL_SQUASH).withAnonymous(500, 501);
        assertThat(options.squash(ALICE)).isEqualTo(new Credential(500, 501, new int[0]));
        assertThat(options.squash(ROOT)).isEqualTo(new Credential(500, 501, new int[0]));
    }

    @Test
    void emptySecurityIsRefused() {
        assertThatThrownBy(() -> new ExportOptions(ExportOptions.Access.READ_ONLY, Squash.ROOT_SQUASH, 1, 1,
                Set.of(), ExportOptions.TxnPolicy.REQUEST)).isInstanceOf(IllegalArgumentException.class);
    }
}
