package org.tcnfs.proto;

import java.util.Objects;
import java.util.Optional;

/**
 * The state of one name before the transaction, captured under its locks (DESIGN.md step 4).
 *
 * @param object the name, with the object's identity if it existed
 * @param presence whether the name existed
 * @param kind the object's kind; present exactly when the name existed
 * @param attributes the object's attributes as captured; {@link Attributes#NONE} if the name did not exist
 *     or none were captured
 */
public record PreImage(ObjectRef object, Presence presence, Optional<ObjectKind> kind, Attributes attributes) {

    public PreImage {
        Objects.requireNonNull(object, "object");
        Objects.requireNonNull(presence, "presence");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(attributes, "attributes");
        if (presence == Presence.PRESENT && kind.isEmpty()) {
            throw new IllegalArgumentException("a name that existed needs its object's kind: " + object.path());
        }
        if (presence == Presence.ABSENT
                && (object.hasIdentity() || kind.isPresent() || !attributes.isEmpty())) {
            throw new IllegalArgumentException("a name that did not exist has no object: " + object.path());
        }
    }

    /** The name {@code path} did not exist. */
    public static PreImage absent(RelativePath path) {
        return new PreImage(ObjectRef.at(path), Presence.ABSENT, Optional.empty(), Attributes.NONE);
    }

    /** The name {@code object.path()} named an object of {@code kind} with {@code attributes}. */
    public static PreImage present(ObjectRef object, ObjectKind kind, Attributes attributes) {
        return new PreImage(object, Presence.PRESENT, Optional.of(kind), attributes);
    }
}
