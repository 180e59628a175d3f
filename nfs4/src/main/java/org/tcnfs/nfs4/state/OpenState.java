package org.tcnfs.nfs4.state;

import java.util.ArrayList;
import java.util.List;

/**
 * The open of one file by one open owner: its share reservation, the share modes its OPENs asked for
 * (OPEN_DOWNGRADE may only go back to a union of some of them), and the lock states opened through it.
 * Guarded by the monitor of its file.
 */
final class OpenState extends NfsState {
    private ShareMode share;
    /** Bit {@code access * 4 + deny} is set for each share mode an OPEN of this owner asked for. */
    private int requested;
    final List<LockState> lockStates = new ArrayList<>();

    OpenState(byte[] other, ClientState client, FileState file, StateOwner owner, ShareMode share,
            OwnerSequence sequence) {
        super(other, client, file, owner, sequence);
        this.share = share;
        this.requested = bit(share);
    }

    /** NFSv4.0: whether the open owner is still waiting for OPEN_CONFIRM (its stateids are not usable). */
    boolean awaitsConfirmation() {
        return sequence != null && !sequence.isConfirmed();
    }

    ShareMode share() {
        return share;
    }

    /** Another OPEN of the same owner: the reservation grows to the union. */
    void upgrade(ShareMode more) {
        share = share.union(more);
        requested |= bit(more);
    }

    /**
     * Whether {@code target} is exactly the union of some of the share modes asked for (RFC 8881 18.18.3):
     * true iff the union of all asked-for modes within {@code target} is {@code target}.
     */
    boolean canDowngradeTo(ShareMode target) {
        int access = 0;
        int deny = 0;
        for (int a = 1; a <= 3; a++) {
            for (int d = 0; d <= 3; d++) {
                if ((requested & (1 << (a * 4 + d))) != 0 && target.includes(new ShareMode(a, d))) {
                    access |= a;
                    deny |= d;
                }
            }
        }
        return access == target.access() && deny == target.deny();
    }

    /** OPEN_DOWNGRADE: keeps {@code target} and forgets the asked-for modes beyond it. */
    void downgrade(ShareMode target) {
        int kept = 0;
        for (int a = 1; a <= 3; a++) {
            for (int d = 0; d <= 3; d++) {
                int b = 1 << (a * 4 + d);
                if ((requested & b) != 0 && target.includes(new ShareMode(a, d))) {
                    kept |= b;
                }
            }
        }
        requested = kept;
        share = target;
    }

    /** The asked-for share modes, as bits (see {@link #requested}), for a journal. */
    int requestedBits() {
        return requested;
    }

    /** A rollback puts back the reservation and asked-for modes of before the rolled-back compound. */
    void restore(ShareMode savedShare, int savedRequested) {
        share = savedShare;
        requested = savedRequested;
    }

    private static int bit(ShareMode mode) {
        return 1 << (mode.access() * 4 + mode.deny());
    }
}
