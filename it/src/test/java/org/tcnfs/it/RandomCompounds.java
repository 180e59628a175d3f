package org.tcnfs.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.tcnfs.client.Attrs;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.createhow4;
import org.tcnfs.nfs4.xdr.createmode4;
import org.tcnfs.nfs4.xdr.fattr4;
import org.tcnfs.nfs4.xdr.open_claim4;
import org.tcnfs.nfs4.xdr.open_owner4;
import org.tcnfs.nfs4.xdr.openflag4;
import org.tcnfs.nfs4.xdr.stateid4;
import org.tcnfs.nfs4.xdr.verifier4;

/**
 * Seeded random compounds over a small random tree, for atomicity, isolation and crash tests.
 *
 * <p>A {@link Model} tracks the tree's names, types and hard-link identities, so every generated
 * {@link Step} succeeds when the steps run in order on a tree in the model's state (the tree
 * {@link #makeTree} made from the same seed). A {@link Compound} is rendered against any copy of that tree
 * ({@link Target}: the copy's root handle and an open owner), as one compound, or with a failing
 * operation injected at a chosen position ({@link #withFailure}); the failure is a real one
 * ({@link FailureKind}), chosen from the names that exist at that position.
 *
 * <p>Everything is derived from one {@link Random}; tests print the seed that made it. Not thread-safe.
 */
final class RandomCompounds {
    /** Object kinds of the model. */
    enum Kind { FILE, DIR, SYMLINK }

    /** One name of the model: its kind and the identity of the object (shared by hard links). */
    record Node(Kind kind, long inode) {
    }

    /** The mutating operation kinds a {@link Step} can be. */
    enum OpType {
        OPEN_CREATE, OPEN_TRUNCATE, WRITE, WRITE_PAST_EOF, SETATTR_SIZE, SETATTR_MODE, SETATTR_OWNER, SETATTR_TIMES,
        CREATE_DIR, CREATE_SYMLINK, LINK, REMOVE_FILE, REMOVE_DIR, RENAME_FILE, RENAME_FILE_OVER, RENAME_DIR,
        RENAME_DIR_OVER
    }

    /** Real reasons for an operation to fail, with the status the server must answer. */
    enum FailureKind {
        MISSING_NAME(NfsStatus.NOENT),
        GUARDED_CREATE_OF_EXISTING_NAME(NfsStatus.EXIST),
        EXCLUSIVE_CREATE_OF_EXISTING_NAME(NfsStatus.EXIST),
        CREATE_DIR_OF_EXISTING_NAME(NfsStatus.EXIST),
        BAD_STATEID(NfsStatus.BAD_STATEID),
        WRITE_TO_DIRECTORY(NfsStatus.ISDIR),
        NAME_TOO_LONG(NfsStatus.NAMETOOLONG);

        private final NfsStatus status;

        FailureKind(NfsStatus status) {
            this.status = status;
        }

        NfsStatus status() {
            return status;
        }
    }

    /** Where a compound is sent: the handle of a tree's root, and the session's client id and open owner. */
    record Target(byte[] root, long clientId, byte[] openOwner) {
        Target {
            root = root.clone();
            openOwner = openOwner.clone();
        }
    }

    /**
     * The model of a tree: every path below the root ('/'-separated, the root itself is "") with its node.
     * Mutable; {@link #copy()} before keeping a state.
     */
    static final class Model {
        private final TreeMap<String, Node> nodes;
        private long nextInode;
        private int nextName;

        Model() {
            this(new TreeMap<>(), 1, 0);
        }

        private Model(TreeMap<String, Node> nodes, long nextInode, int nextName) {
            this.nodes = nodes;
            this.nextInode = nextInode;
            this.nextName = nextName;
        }

        Model copy() {
            return new Model(new TreeMap<>(nodes), nextInode, nextName);
        }

        /** Every path and its node, sorted. */
        Map<String, Node> nodes() {
            return java.util.Collections.unmodifiableMap(nodes);
        }

        boolean exists(String path) {
            return path.isEmpty() || nodes.containsKey(path);
        }

        Kind kind(String path) {
            return path.isEmpty() ? Kind.DIR : nodes.get(path).kind();
        }

        /** Directories, the root ("") first. */
        List<String> dirs() {
            List<String> out = new ArrayList<>();
            out.add("");
            nodes.forEach((p, n) -> {
                if (n.kind() == Kind.DIR) {
                    out.add(p);
                }
            });
            return out;
        }

        List<String> paths(Kind kind) {
            return nodes.entrySet().stream().filter(e -> e.getValue().kind() == kind).map(Map.Entry::getKey).toList();
        }

        List<String> children(String dir) {
            String prefix = dir.isEmpty() ? "" : dir + "/";
            return nodes.keySet().stream()
                    .filter(p -> p.startsWith(prefix) && p.length() > prefix.length()
                            && p.indexOf('/', prefix.length()) < 0)
                    .toList();
        }

        boolean isEmptyDir(String path) {
            return kind(path) == Kind.DIR && children(path).isEmpty();
        }

        /** A name no path of the model has used yet. */
        String freshName(String stem) {
            return stem + (nextName++);
        }

        void addNew(String path, Kind kind) {
            nodes.put(path, new Node(kind, nextInode++));
        }

        void addLink(String existing, String path) {
            nodes.put(path, nodes.get(existing));
        }

        void remove(String path) {
            nodes.remove(path);
        }

        /** POSIX rename: replaces the target, moves the subtree of a directory. */
        void rename(String from, String to) {
            if (nodes.containsKey(to) && nodes.get(to).inode() == nodes.get(from).inode()) {
                return;
            }
            nodes.remove(to);
            String prefix = from + "/";
            Map<String, Node> moved = new TreeMap<>();
            for (var it = nodes.entrySet().iterator(); it.hasNext(); ) {
                var e = it.next();
                if (e.getKey().equals(from) || e.getKey().startsWith(prefix)) {
                    moved.put(to + e.getKey().substring(from.length()), e.getValue());
                    it.remove();
                }
            }
            nodes.putAll(moved);
        }

        @Override
        public String toString() {
            return nodes.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue().kind().name().charAt(0)
                    + e.getValue().inode()).collect(Collectors.joining(", ", "{", "}"));
        }
    }

    /** One mutating operation with the PUTFH/LOOKUP/SAVEFH it needs. */
    interface Step {
        /** Appends this step's operations. */
        void render(CompoundBuilder c, Target t);

        /** Changes the model as the step changes the tree. */
        void apply(Model m);

        OpType type();
    }

    /** A sequence of steps and the model before each step (and after the last). */
    static final class Compound {
        private final long seed;
        private final List<Step> steps;
        private final List<Model> states;

        private Compound(long seed, List<Step> steps, List<Model> states) {
            this.seed = seed;
            this.steps = List.copyOf(steps);
            this.states = List.copyOf(states);
        }

        long seed() {
            return seed;
        }

        List<Step> steps() {
            return steps;
        }

        /** The model before step {@code position} ({@code steps().size()}: after the last step). */
        Model stateAt(int position) {
            return states.get(position).copy();
        }

        Model after() {
            return stateAt(steps.size());
        }

        CompoundBuilder render(Target t) {
            CompoundBuilder c = new CompoundBuilder().tag("random-" + seed);
            for (Step s : steps) {
                s.render(c, t);
            }
            return c;
        }

        int opCount() {
            return render(new Target(new byte[16], 0, new byte[1])).size();
        }

        @Override
        public String toString() {
            return "compound of seed " + seed + " (" + steps.size() + " steps, " + opCount() + " ops): " + steps;
        }
    }

    /**
     * A compound with a failing operation injected.
     *
     * @param ops what to send
     * @param failingOp the index in {@code ops} of the operation that fails (without the SEQUENCE)
     * @param kind the failure injected (may differ from the one asked for when the model offered no name for it)
     * @param description for messages
     */
    record Injected(CompoundBuilder ops, int failingOp, FailureKind kind, String description) {
        NfsStatus expected() {
            return kind.status();
        }
    }

    private final long seed;
    private final Random random;

    RandomCompounds(long seed) {
        this.seed = seed;
        this.random = new Random(seed);
    }

    long seed() {
        return seed;
    }

    Random random() {
        return random;
    }

    // ---- trees ---------------------------------------------------------------------------------------------

    /**
     * Makes a random tree below the existing empty directory {@code root} (directories up to two deep,
     * files of 0-16 KiB with varied modes and owners, a symlink, a hard link) and returns its model. The
     * same seed makes the same tree.
     */
    static Model makeTree(Path root, long treeSeed) throws IOException {
        Random r = new Random(treeSeed);
        Model m = new Model();
        int dirs = 2 + r.nextInt(3);
        for (int i = 0; i < dirs; i++) {
            List<String> parents = m.dirs().stream().filter(d -> d.split("/").length < 2).toList();
            String parent = parents.get(r.nextInt(parents.size()));
            String path = join(parent, m.freshName("d"));
            Files.createDirectory(root.resolve(path));
            m.addNew(path, Kind.DIR);
        }
        int files = 3 + r.nextInt(6);
        String[] modes = {"rw-r--r--", "rw-------", "rwxr-xr-x", "rw-rw-r--"};
        for (int i = 0; i < files; i++) {
            List<String> parents = m.dirs();
            String path = join(parents.get(r.nextInt(parents.size())), m.freshName("f"));
            byte[] data = new byte[r.nextInt(16 * 1024 + 1)];
            r.nextBytes(data);
            Path p = root.resolve(path);
            Files.write(p, data);
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(modes[r.nextInt(modes.length)]));
            if (r.nextInt(3) == 0) {
                Files.setAttribute(p, "unix:uid", 1000);
                Files.setAttribute(p, "unix:gid", 1000);
            }
            m.addNew(path, Kind.FILE);
        }
        String firstFile = m.paths(Kind.FILE).get(0);
        String link = join("", m.freshName("h"));
        Files.createLink(root.resolve(link), root.resolve(firstFile));
        m.addLink(firstFile, link);
        String sym = join(m.dirs().get(r.nextInt(m.dirs().size())), m.freshName("l"));
        Files.createSymbolicLink(root.resolve(sym), Path.of("../target-" + r.nextInt(100)));
        m.addNew(sym, Kind.SYMLINK);
        return m;
    }

    // ---- compounds -----------------------------------------------------------------------------------------

    /** A compound of {@code minOps}-{@code maxOps} operations of random types, valid from {@code start}. */
    Compound mixed(Model start, int minOps, int maxOps) {
        int target = minOps + random.nextInt(maxOps - minOps + 1);
        return build(start, target, OpType.values());
    }

    /**
     * A compound of exactly {@code steps}, in order, each valid on the model its predecessors leave (the
     * caller made them with {@link #step} on a copy of {@code start}); for scripted mixes in crash tests.
     */
    static Compound of(long seed, Model start, List<Step> steps) {
        Model m = start.copy();
        List<Model> states = new ArrayList<>();
        for (Step s : steps) {
            states.add(m.copy());
            s.apply(m);
        }
        states.add(m.copy());
        return new Compound(seed, steps, states);
    }

    /** A compound of 1-{@code maxSteps} steps of one type (or empty if the model offers none). */
    Compound ofType(Model start, OpType type, int maxSteps) {
        Model m = start.copy();
        List<Step> steps = new ArrayList<>();
        List<Model> states = new ArrayList<>();
        int n = 1 + random.nextInt(maxSteps);
        for (int i = 0; i < n; i++) {
            Optional<Step> s = step(type, m);
            if (s.isEmpty()) {
                break;
            }
            states.add(m.copy());
            s.get().apply(m);
            steps.add(s.get());
        }
        states.add(m.copy());
        return new Compound(seed, steps, states);
    }

    private Compound build(Model start, int targetOps, OpType[] types) {
        Model m = start.copy();
        List<Step> steps = new ArrayList<>();
        List<Model> states = new ArrayList<>();
        int ops = 0;
        Target dummy = new Target(new byte[16], 0, new byte[1]);
        int attempts = 0;
        while (attempts++ < 10_000) {
            Optional<Step> s = step(types[random.nextInt(types.length)], m);
            if (s.isEmpty()) {
                continue;
            }
            CompoundBuilder probe = new CompoundBuilder();
            s.get().render(probe, dummy);
            if (ops + probe.size() > targetOps && ops >= 2) {
                break;
            }
            states.add(m.copy());
            s.get().apply(m);
            steps.add(s.get());
            ops += probe.size();
            if (ops >= targetOps) {
                break;
            }
        }
        states.add(m.copy());
        return new Compound(seed, steps, states);
    }

    /** A step of {@code type} valid on {@code m}, or empty when the model has nothing to apply it to. */
    Optional<Step> step(OpType type, Model m) {
        List<String> files = m.paths(Kind.FILE);
        List<String> dirs = m.dirs();
        switch (type) {
            case OPEN_CREATE: {
                String dir = pick(dirs);
                return Optional.of(new OpenCreate(join(dir, m.freshName("n")), 0600 + random.nextInt(0200),
                        OpenCreate.NEW, maybeData(), random.nextInt(3000)));
            }
            case OPEN_TRUNCATE:
                return files.isEmpty() ? Optional.empty() : Optional.of(new OpenCreate(pick(files), 0,
                        OpenCreate.TRUNCATE, maybeData(), random.nextInt(3000)));
            case WRITE:
                return files.isEmpty() ? Optional.empty() : Optional.of(new Write(type, pick(files),
                        random.nextInt(12_000), data(1 + random.nextInt(8000)), random.nextBoolean()));
            case WRITE_PAST_EOF:
                return files.isEmpty() ? Optional.empty() : Optional.of(new Write(type, pick(files),
                        20_000 + random.nextInt(40_000), data(1 + random.nextInt(4000)), random.nextBoolean()));
            case SETATTR_SIZE:
                return files.isEmpty() ? Optional.empty() : Optional.of(new SetAttr(type, pick(files),
                        Attrs.builder().size(random.nextInt(30_000)).build(), "size"));
            case SETATTR_MODE: {
                List<String> targets = new ArrayList<>(files);
                targets.addAll(dirs.subList(1, dirs.size()));
                if (targets.isEmpty()) {
                    return Optional.empty();
                }
                String path = pick(targets);
                int mode = (m.kind(path) == Kind.DIR ? 0700 : 0600) | random.nextInt(0100);
                return Optional.of(new SetAttr(type, path, Attrs.builder().mode(mode).build(),
                        "mode " + Integer.toOctalString(mode)));
            }
            case SETATTR_OWNER: {
                if (files.isEmpty()) {
                    return Optional.empty();
                }
                String id = Integer.toString(random.nextBoolean() ? 0 : 1000 + random.nextInt(3));
                String gid = Integer.toString(random.nextBoolean() ? 0 : 1000 + random.nextInt(3));
                return Optional.of(new SetAttr(type, pick(files), Attrs.builder().owner(id).ownerGroup(gid).build(),
                        "owner " + id + ":" + gid));
            }
            case SETATTR_TIMES: {
                if (files.isEmpty()) {
                    return Optional.empty();
                }
                long t = 1_000_000_000L + random.nextInt(1_000_000_000);
                return Optional.of(new SetAttr(type, pick(files),
                        Attrs.builder().timeModifySet(t, 0).timeAccessSet(t, 0).build(), "times " + t));
            }
            case CREATE_DIR:
                return Optional.of(new Create(type, join(pick(dirs), m.freshName("c")), null));
            case CREATE_SYMLINK:
                return Optional.of(new Create(type, join(pick(dirs), m.freshName("y")),
                        "../t" + random.nextInt(1000)));
            case LINK:
                return files.isEmpty() ? Optional.empty()
                        : Optional.of(new Link(pick(files), join(pick(dirs), m.freshName("k"))));
            case REMOVE_FILE: {
                List<String> victims = new ArrayList<>(files);
                victims.addAll(m.paths(Kind.SYMLINK));
                return victims.isEmpty() ? Optional.empty() : Optional.of(new Remove(type, pick(victims)));
            }
            case REMOVE_DIR: {
                List<String> empty = dirs.stream().filter(d -> !d.isEmpty() && m.isEmptyDir(d)).toList();
                return empty.isEmpty() ? Optional.empty() : Optional.of(new Remove(type, pick(empty)));
            }
            case RENAME_FILE: {
                List<String> from = new ArrayList<>(files);
                from.addAll(m.paths(Kind.SYMLINK));
                return from.isEmpty() ? Optional.empty()
                        : Optional.of(new Rename(type, pick(from), join(pick(dirs), m.freshName("r"))));
            }
            case RENAME_FILE_OVER: {
                List<String> from = new ArrayList<>(files);
                from.addAll(m.paths(Kind.SYMLINK));
                List<String[]> pairs = new ArrayList<>();
                for (String a : from) {
                    for (String b : from) {
                        if (m.nodes().get(a).inode() != m.nodes().get(b).inode()) {
                            pairs.add(new String[] {a, b});
                        }
                    }
                }
                if (pairs.isEmpty()) {
                    return Optional.empty();
                }
                String[] p = pairs.get(random.nextInt(pairs.size()));
                return Optional.of(new Rename(type, p[0], p[1]));
            }
            case RENAME_DIR: {
                List<String> from = dirs.subList(1, dirs.size());
                if (from.isEmpty()) {
                    return Optional.empty();
                }
                String src = pick(from);
                List<String> into = dirs.stream().filter(d -> !d.equals(src) && !d.startsWith(src + "/")).toList();
                return Optional.of(new Rename(type, src, join(pick(into), m.freshName("r"))));
            }
            case RENAME_DIR_OVER: {
                List<String[]> pairs = new ArrayList<>();
                for (String a : dirs.subList(1, dirs.size())) {
                    for (String b : dirs.subList(1, dirs.size())) {
                        if (!a.equals(b) && m.isEmptyDir(b) && !b.startsWith(a + "/") && !a.startsWith(b + "/")) {
                            pairs.add(new String[] {a, b});
                        }
                    }
                }
                if (pairs.isEmpty()) {
                    return Optional.empty();
                }
                String[] p = pairs.get(random.nextInt(pairs.size()));
                return Optional.of(new Rename(type, p[0], p[1]));
            }
            default:
                throw new IllegalArgumentException(type.name());
        }
    }

    /**
     * {@code compound} with a failing operation of {@code kind} inserted before step {@code position}
     * ({@code steps().size()}: after the last one); the later steps stay in the compound (they never run).
     */
    Injected withFailure(Compound compound, int position, FailureKind kind, Target t) {
        Model at = compound.stateAt(position);
        CompoundBuilder c = new CompoundBuilder().tag("random-" + compound.seed() + "-fail-" + position);
        for (int i = 0; i < position; i++) {
            compound.steps().get(i).render(c, t);
        }
        FailureKind used = kind;
        List<String> files = at.paths(Kind.FILE);
        List<String> anyName = new ArrayList<>(at.nodes().keySet());
        if ((kind == FailureKind.EXCLUSIVE_CREATE_OF_EXISTING_NAME || kind == FailureKind.BAD_STATEID
                || kind == FailureKind.GUARDED_CREATE_OF_EXISTING_NAME) && files.isEmpty()) {
            used = FailureKind.MISSING_NAME;
        }
        if (kind == FailureKind.CREATE_DIR_OF_EXISTING_NAME && anyName.isEmpty()) {
            used = FailureKind.NAME_TOO_LONG;
        }
        String detail;
        switch (used) {
            case MISSING_NAME -> {
                String dir = pick(at.dirs());
                String name = "missing-" + random.nextInt(1_000_000);
                lookupDir(c, t, dir);
                if (random.nextBoolean()) {
                    c.remove(name);
                    detail = "REMOVE of missing " + join(dir, name);
                } else {
                    c.lookup(name);
                    detail = "LOOKUP of missing " + join(dir, name);
                }
            }
            case GUARDED_CREATE_OF_EXISTING_NAME -> {
                String path = pick(files);
                lookupDir(c, t, parent(path));
                c.open(new OPEN4args(0, OPEN4args.OPEN4_SHARE_ACCESS_BOTH, OPEN4args.OPEN4_SHARE_DENY_NONE,
                        new open_owner4(t.clientId(), t.openOwner()),
                        openflag4.create(createhow4.withAttributes(createmode4.GUARDED4,
                                Attrs.builder().mode(0644).build())), open_claim4.byName(name(path))));
                detail = "OPEN GUARDED4 of existing " + path;
            }
            case EXCLUSIVE_CREATE_OF_EXISTING_NAME -> {
                String path = pick(files);
                lookupDir(c, t, parent(path));
                byte[] verifier = new byte[8];
                random.nextBytes(verifier);
                c.open(new OPEN4args(0, OPEN4args.OPEN4_SHARE_ACCESS_BOTH, OPEN4args.OPEN4_SHARE_DENY_NONE,
                        new open_owner4(t.clientId(), t.openOwner()),
                        openflag4.create(createhow4.exclusive41(new verifier4(verifier), Attrs.builder().build())),
                        open_claim4.byName(name(path))));
                detail = "OPEN EXCLUSIVE4_1 of existing " + path;
            }
            case CREATE_DIR_OF_EXISTING_NAME -> {
                String path = pick(anyName);
                lookupDir(c, t, parent(path));
                c.mkdir(name(path));
                detail = "CREATE dir of existing " + path;
            }
            case BAD_STATEID -> {
                String path = pick(files);
                lookupDir(c, t, path);
                byte[] other = new byte[12];
                random.nextBytes(other);
                other[0] |= 1;
                c.write(new stateid4(1, other), random.nextInt(5000), data(100));
                detail = "WRITE with a forged stateid to " + path;
            }
            case WRITE_TO_DIRECTORY -> {
                String dir = pick(at.dirs());
                lookupDir(c, t, dir);
                c.write(CompoundBuilder.anonymousStateid(), 0, data(100));
                detail = "WRITE to directory '" + dir + "'";
            }
            case NAME_TOO_LONG -> {
                String dir = pick(at.dirs());
                lookupDir(c, t, dir);
                c.mkdir("x".repeat(256));
                detail = "CREATE dir of a 256-byte name in '" + dir + "'";
            }
            default -> throw new IllegalArgumentException(used.name());
        }
        int failing = c.size() - 1;
        for (int i = position; i < compound.steps().size(); i++) {
            compound.steps().get(i).render(c, t);
        }
        return new Injected(c, failing, used, detail + " at step " + position + " of " + compound);
    }

    // ---- steps ---------------------------------------------------------------------------------------------

    /** OPEN with create (UNCHECKED4) of a new name, or truncating an existing file, then maybe a WRITE. */
    record OpenCreate(String path, int mode, int how, byte[] data, int offset) implements Step {
        static final int NEW = 0;
        static final int TRUNCATE = 1;

        @Override
        public void render(CompoundBuilder c, Target t) {
            lookupDir(c, t, parent(path));
            fattr4 attrs = how == NEW ? Attrs.builder().mode(mode).build() : Attrs.builder().size(0).build();
            c.openCreate(t.clientId(), t.openOwner(), name(path), OPEN4args.OPEN4_SHARE_ACCESS_BOTH, attrs);
            if (data != null) {
                c.write(CompoundBuilder.currentStateid(), offset, data);
            }
        }

        @Override
        public void apply(Model m) {
            if (!m.exists(path)) {
                m.addNew(path, Kind.FILE);
            }
        }

        @Override
        public OpType type() {
            return how == NEW ? OpType.OPEN_CREATE : OpType.OPEN_TRUNCATE;
        }

        @Override
        public String toString() {
            return type() + " " + path + (data == null ? "" : " + WRITE " + data.length + "@" + offset);
        }
    }

    /** WRITE to an existing file, through an OPEN or with the anonymous stateid. */
    record Write(OpType type, String path, long offset, byte[] data, boolean open) implements Step {
        @Override
        public void render(CompoundBuilder c, Target t) {
            if (open) {
                lookupDir(c, t, parent(path));
                c.openExisting(t.clientId(), t.openOwner(), name(path), OPEN4args.OPEN4_SHARE_ACCESS_WRITE)
                        .write(CompoundBuilder.currentStateid(), offset, data);
            } else {
                lookupDir(c, t, path);
                c.write(CompoundBuilder.anonymousStateid(), offset, data);
            }
        }

        @Override
        public void apply(Model m) {
        }

        @Override
        public String toString() {
            return type + " " + path + " " + data.length + "@" + offset + (open ? " (opened)" : "");
        }
    }

    /** SETATTR of an existing object. */
    record SetAttr(OpType type, String path, fattr4 attrs, String what) implements Step {
        @Override
        public void render(CompoundBuilder c, Target t) {
            lookupDir(c, t, path);
            c.setattr(attrs);
        }

        @Override
        public void apply(Model m) {
        }

        @Override
        public String toString() {
            return "SETATTR " + what + " of " + path;
        }
    }

    /** CREATE of a directory ({@code target} null) or a symbolic link. */
    record Create(OpType type, String path, String target) implements Step {
        @Override
        public void render(CompoundBuilder c, Target t) {
            lookupDir(c, t, parent(path));
            if (target == null) {
                c.mkdir(name(path), Attrs.builder().mode(0755).build());
            } else {
                c.symlink(name(path), target);
            }
        }

        @Override
        public void apply(Model m) {
            m.addNew(path, target == null ? Kind.DIR : Kind.SYMLINK);
        }

        @Override
        public String toString() {
            return type + " " + path + (target == null ? "" : " -> " + target);
        }
    }

    /** LINK of an existing file under a new name. */
    record Link(String from, String to) implements Step {
        @Override
        public void render(CompoundBuilder c, Target t) {
            lookupDir(c, t, from);
            c.savefh();
            lookupDir(c, t, parent(to));
            c.link(name(to));
        }

        @Override
        public void apply(Model m) {
            m.addLink(from, to);
        }

        @Override
        public OpType type() {
            return OpType.LINK;
        }

        @Override
        public String toString() {
            return "LINK " + from + " as " + to;
        }
    }

    /** REMOVE of a file, symlink or empty directory. */
    record Remove(OpType type, String path) implements Step {
        @Override
        public void render(CompoundBuilder c, Target t) {
            lookupDir(c, t, parent(path));
            c.remove(name(path));
        }

        @Override
        public void apply(Model m) {
            m.remove(path);
        }

        @Override
        public String toString() {
            return type + " " + path;
        }
    }

    /** RENAME, over an existing target or not, within a directory or across. */
    record Rename(OpType type, String from, String to) implements Step {
        @Override
        public void render(CompoundBuilder c, Target t) {
            lookupDir(c, t, parent(from));
            c.savefh();
            lookupDir(c, t, parent(to));
            c.rename(name(from), name(to));
        }

        @Override
        public void apply(Model m) {
            m.rename(from, to);
        }

        @Override
        public String toString() {
            return type + " " + from + " -> " + to;
        }
    }

    // ---- helpers -------------------------------------------------------------------------------------------

    /** PUTFH of the target's root, then one LOOKUP per component of {@code path}. */
    static void lookupDir(CompoundBuilder c, Target t, String path) {
        c.putfh(t.root()).lookupPath(path);
    }

    static String join(String dir, String name) {
        return dir.isEmpty() ? name : dir + "/" + name;
    }

    static String parent(String path) {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? "" : path.substring(0, slash);
    }

    static String name(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    private <T> T pick(List<T> list) {
        return list.get(random.nextInt(list.size()));
    }

    private byte[] maybeData() {
        return random.nextInt(3) == 0 ? null : data(1 + random.nextInt(6000));
    }

    private byte[] data(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    @Override
    public String toString() {
        return "RandomCompounds[seed " + seed + "]";
    }
}
