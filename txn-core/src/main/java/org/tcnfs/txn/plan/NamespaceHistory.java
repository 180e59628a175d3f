package org.tcnfs.txn.plan;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The name-space changes a compound makes, in operation order, so that the planner can translate paths
 * between "before the compound" (where handles resolve and pre-images are taken) and "when operation k
 * runs" (where names are looked up). Only what the planner is sure of is recorded: names that an operation
 * can only create new (CREATE, OPEN GUARDED4, LINK), removals and renames.
 *
 * <p>Events are indexed by the paths they name, so a translation looks only at the events on the path's
 * own ancestors: its cost grows with the path's depth and the events that really apply to it, not with the
 * length of the compound.
 *
 * <p>Per compound, single-threaded.
 */
final class NamespaceHistory {

    private sealed interface Event permits Created, Removed, Renamed, Aliased {
    }

    /** A name created new; whatever is at or beneath it later did not exist before. */
    private record Created(ObjectPath path) implements Event {
    }

    /** A name removed; whatever is at or beneath it later was created afterwards. */
    private record Removed(ObjectPath path) implements Event {
    }

    /** A rename; what is at or beneath {@code to} afterwards was at or beneath {@code from} before. */
    private record Renamed(ObjectPath from, ObjectPath to) implements Event {
    }

    /** A new name (LINK) for an object whose path before the compound was {@code origin}. */
    private record Aliased(ObjectPath path, Optional<ObjectPath> origin) implements Event {
    }

    private final List<Event> events = new ArrayList<>();
    /** For each path an event names: the indices of those events, ascending. */
    private final Map<ObjectPath, List<Integer>> byPath = new HashMap<>();
    /** For each source of a rename: the indices of those renames, ascending. */
    private final Map<ObjectPath, List<Integer>> renamesByFrom = new HashMap<>();

    /** Number of events so far: a point in time for {@link #originOf}. */
    int size() {
        return events.size();
    }

    void created(ObjectPath path) {
        add(new Created(path), path);
    }

    void removed(ObjectPath path) {
        add(new Removed(path), path);
    }

    void renamed(ObjectPath from, ObjectPath to) {
        int index = add(new Renamed(from, to), from);
        if (!to.equals(from)) {
            byPath.computeIfAbsent(to, p -> new ArrayList<>()).add(index);
        }
        renamesByFrom.computeIfAbsent(from, p -> new ArrayList<>()).add(index);
    }

    void aliased(ObjectPath path, Optional<ObjectPath> origin) {
        add(new Aliased(path, origin), path);
    }

    private int add(Event event, ObjectPath path) {
        int index = events.size();
        events.add(event);
        byPath.computeIfAbsent(path, p -> new ArrayList<>()).add(index);
        return index;
    }

    /**
     * Where the object found at {@code path} after the first {@code time} events was before the compound:
     * empty if it cannot have existed then. Walks back through the events on the path's ancestors, latest
     * first.
     */
    Optional<ObjectPath> originOf(ObjectPath path, int time) {
        ObjectPath p = path;
        int before = time;
        while (true) {
            int latest = -1;
            for (ObjectPath a = p; a != null; a = a.parentOrNull()) {
                List<Integer> indices = byPath.get(a);
                if (indices != null) {
                    latest = Math.max(latest, lastBelow(indices, before));
                }
            }
            if (latest < 0) {
                return Optional.of(p);
            }
            Event event = events.get(latest);
            if (event instanceof Renamed r) {
                if (p.isWithin(r.to())) {
                    p = p.rebase(r.to(), r.from());
                } else {
                    return Optional.empty();
                }
            } else if (event instanceof Aliased a) {
                if (p.equals(a.path())) {
                    return a.origin();
                }
                // beneath a non-directory: nothing the compound can reach; the event does not apply
            } else {
                return Optional.empty();
            }
            before = latest;
        }
    }

    /**
     * Where an object whose path before the compound was {@code original} is now, after the renames so far
     * (removals are not applied: the path of a removed object stays where it was). Applies, in order, each
     * rename whose source is the path or an ancestor at that moment.
     */
    ObjectPath forward(ObjectPath original) {
        ObjectPath p = original;
        int after = -1;
        while (true) {
            int next = Integer.MAX_VALUE;
            for (ObjectPath a = p; a != null; a = a.parentOrNull()) {
                List<Integer> indices = renamesByFrom.get(a);
                if (indices != null) {
                    next = Math.min(next, firstAbove(indices, after));
                }
            }
            if (next == Integer.MAX_VALUE) {
                return p;
            }
            Renamed r = (Renamed) events.get(next);
            p = p.rebase(r.from(), r.to());
            after = next;
        }
    }

    /** The largest index in ascending {@code indices} below {@code limit}, or -1. */
    private static int lastBelow(List<Integer> indices, int limit) {
        int lo = 0;
        int hi = indices.size() - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int value = indices.get(mid);
            if (value < limit) {
                found = value;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    /** The smallest index in ascending {@code indices} above {@code limit}, or {@link Integer#MAX_VALUE}. */
    private static int firstAbove(List<Integer> indices, int limit) {
        int lo = 0;
        int hi = indices.size() - 1;
        int found = Integer.MAX_VALUE;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int value = indices.get(mid);
            if (value > limit) {
                found = value;
                hi = mid - 1;
            } else {
                lo = mid + 1;
            }
        }
        return found;
    }
}
