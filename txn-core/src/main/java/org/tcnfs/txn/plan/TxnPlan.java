package org.tcnfs.txn.plan;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.tcnfs.txn.lock.LockMode;
import org.tcnfs.txn.lock.LockRequest;

/**
 * What a compound will touch, worked out from its arguments before any operation runs (DESIGN.md, the
 * transaction protocol, step 2): the lock keys with their modes, and the changes the backup and undo layers
 * prepare for.
 *
 * <p>Three shapes:
 * <ul>
 *   <li>complete: {@link #expectedFailure} and {@link #unplannable} empty, every operation is covered;</li>
 *   <li>stopped: {@link #expectedFailure} names the operation at which the plan stops, because that operation
 *       is bound to fail; the plan covers operations {@code 0..opIndex} (see {@link ExpectedFailure});</li>
 *   <li>unplannable: {@link #unplannable} says which operation the planner does not know; every list is
 *       empty and the compound cannot run as a transaction.</li>
 * </ul>
 *
 * @param opCount number of operations in the compound
 * @param keys the path lock keys, sorted ({@link PathKey#compareTo}), one per path with the strongest mode
 *     the compound needs there; ancestors are not listed (the lock manager read-locks them)
 * @param objectKeys the object lock keys, sorted, one per handle
 * @param mutations the changes, in operation order
 * @param assumptions what the resolver answered, to be checked again after locking
 * @param expectedFailure the operation at which the plan stops, if any
 * @param unplannable why there is no plan, if there is none
 * @param retransmissions the NFSv4.0 OPENs planned as retransmissions answered from their owner's last reply
 *     ({@link Retransmissions}); every other OPEN was planned as one that runs
 */
public record TxnPlan(int opCount, List<PathKey> keys, List<ObjectKey> objectKeys, List<Mutation> mutations,
        List<Assumption> assumptions, Optional<ExpectedFailure> expectedFailure, Optional<Unplannable> unplannable,
        Set<Integer> retransmissions) {

    public TxnPlan {
        if (opCount < 0) {
            throw new IllegalArgumentException("negative op count " + opCount);
        }
        keys = List.copyOf(keys);
        objectKeys = List.copyOf(objectKeys);
        mutations = List.copyOf(mutations);
        assumptions = List.copyOf(assumptions);
        Objects.requireNonNull(expectedFailure, "expectedFailure");
        Objects.requireNonNull(unplannable, "unplannable");
        retransmissions = Set.copyOf(retransmissions);
        for (int i = 1; i < keys.size(); i++) {
            if (keys.get(i - 1).path().compareTo(keys.get(i).path()) >= 0) {
                throw new IllegalArgumentException("keys not sorted or not distinct at " + keys.get(i));
            }
        }
        for (int i = 1; i < objectKeys.size(); i++) {
            if (objectKeys.get(i - 1).compareTo(objectKeys.get(i)) >= 0
                    || objectKeys.get(i - 1).handle().equals(objectKeys.get(i).handle())
                    && objectKeys.get(i - 1).exportId().equals(objectKeys.get(i).exportId())) {
                throw new IllegalArgumentException("object keys not sorted or not distinct at " + objectKeys.get(i));
            }
        }
        if (unplannable.isPresent() && (!keys.isEmpty() || !objectKeys.isEmpty() || !mutations.isEmpty()
                || !assumptions.isEmpty() || expectedFailure.isPresent())) {
            throw new IllegalArgumentException("an unplannable compound has no plan");
        }
        if (expectedFailure.isPresent() && expectedFailure.get().opIndex() >= opCount) {
            throw new IllegalArgumentException("expected failure beyond the compound");
        }
    }

    /** The plan of a compound of {@code opCount} operations that holds an operation the planner does not know. */
    public static TxnPlan unplannable(int opCount, Unplannable why) {
        return new TxnPlan(opCount, List.of(), List.of(), List.of(), List.of(), Optional.empty(), Optional.of(why),
                Set.of());
    }

    /** Whether the compound has a plan (complete or stopped). */
    public boolean isPlannable() {
        return unplannable.isEmpty();
    }

    /** Whether the plan holds any change (an unplannable compound is assumed to change things). */
    public boolean mutates() {
        return unplannable.isPresent() || !mutations.isEmpty();
    }

    /**
     * This plan with its locks and assumptions but no changes: for a compound whose every change is refused
     * before it happens (a read-only export), which runs as a read-only transaction.
     */
    public TxnPlan withoutMutations() {
        return new TxnPlan(opCount, keys, objectKeys, List.of(), assumptions, expectedFailure, unplannable,
                retransmissions);
    }

    /** Number of operations the plan covers: all, or up to and including the expected failure. */
    public int coveredOps() {
        return expectedFailure.map(f -> f.opIndex() + 1).orElse(isPlannable() ? opCount : 0);
    }

    /**
     * All keys as the lock manager takes them ({@code LockManager.acquire}): the path keys, then the object
     * keys. The lock manager orders them itself and adds the ancestors' READ locks.
     */
    public List<LockRequest> lockRequests() {
        List<LockRequest> requests = new ArrayList<>(keys.size() + objectKeys.size());
        for (PathKey key : keys) {
            requests.add(key.toLockRequest());
        }
        for (ObjectKey key : objectKeys) {
            requests.add(key.toLockRequest());
        }
        return List.copyOf(requests);
    }

    /** The mode of the path key for {@code path}, if the plan has one (ancestors do not count). */
    public Optional<LockMode> modeOf(ObjectPath path) {
        int i = Collections.binarySearch(keys, new PathKey(path, LockMode.READ),
                (a, b) -> a.path().compareTo(b.path()));
        return i >= 0 ? Optional.of(keys.get(i).mode()) : Optional.empty();
    }

    /** The WRITEs, in operation order. */
    public List<Mutation.Write> writes() {
        return only(Mutation.Write.class);
    }

    /** The WRITEs grouped by file (the file as the first WRITE of it names it), in operation order. */
    public Map<ObjectRef, List<Mutation.Write>> writesByFile() {
        Map<ObjectRef, List<Mutation.Write>> byFile = new LinkedHashMap<>();
        for (Mutation.Write write : writes()) {
            byFile.computeIfAbsent(write.file(), f -> new ArrayList<>()).add(write);
        }
        byFile.replaceAll((f, list) -> List.copyOf(list));
        return Collections.unmodifiableMap(byFile);
    }

    /** SETATTR sizes and OPEN truncations, in operation order. */
    public List<Mutation.SizeChange> sizeChanges() {
        return only(Mutation.SizeChange.class);
    }

    /** SETATTRs, in operation order. */
    public List<Mutation.AttributeChange> attributeChanges() {
        return only(Mutation.AttributeChange.class);
    }

    /** CREATEs and creating OPENs, in operation order. */
    public List<Mutation.Creation> creations() {
        return only(Mutation.Creation.class);
    }

    /** REMOVEs, in operation order. */
    public List<Mutation.Removal> removals() {
        return only(Mutation.Removal.class);
    }

    /** RENAMEs, in operation order. */
    public List<Mutation.Rename> renames() {
        return only(Mutation.Rename.class);
    }

    /** LINKs, in operation order. */
    public List<Mutation.HardLink> links() {
        return only(Mutation.HardLink.class);
    }

    /**
     * Whether every {@link Assumption} still holds; call it with the locks held. If not, release the locks
     * and plan again.
     *
     * @throws IOException if a resolver lookup failed
     */
    public boolean assumptionsHold(PathResolver resolver) throws IOException {
        for (Assumption assumption : assumptions) {
            if (!assumption.holds(resolver)) {
                return false;
            }
        }
        return true;
    }

    private <T extends Mutation> List<T> only(Class<T> type) {
        List<T> result = new ArrayList<>();
        for (Mutation m : mutations) {
            if (type.isInstance(m)) {
                result.add(type.cast(m));
            }
        }
        return List.copyOf(result);
    }
}
