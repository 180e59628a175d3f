package org.tcnfs.jmh.workload;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The physical limit: the same work straight on a local directory, as a careful local program would do it. Each
 * written file is fsynced, and each call fsyncs the directories whose entries it changed once (a call is what one
 * COMPOUND carries for an NFS target), so the data is as durable as a FILE_SYNC write's.
 */
final class DiskTarget implements Target {
    private final String name;
    private final Path root;

    DiskTarget(String name, Path root) {
        this.name = name;
        this.root = root;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public FsSession open() throws IOException {
        Files.createDirectories(root);
        return new Session(root);
    }

    @Override
    public String toString() {
        return name + " (" + root + ", fsync)";
    }

    /** Local calls; stateless apart from the root. */
    private static final class Session implements FsSession {
        private final Path root;

        Session(Path root) {
            this.root = root;
        }

        private Path at(String path) {
            return path.isEmpty() ? root : root.resolve(path);
        }

        private static void syncDirectories(Set<Path> dirs) throws IOException {
            for (Path d : dirs) {
                try (FileChannel ch = FileChannel.open(d, StandardOpenOption.READ)) {
                    ch.force(true);
                }
            }
        }

        @Override
        public void write(List<FileData> files) throws IOException {
            Set<Path> parents = new LinkedHashSet<>();
            for (FileData f : files) {
                Path p = at(f.path());
                try (FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING)) {
                    ByteBuffer b = ByteBuffer.wrap(f.data());
                    while (b.hasRemaining()) {
                        ch.write(b);
                    }
                    ch.force(true);
                }
                parents.add(p.getParent());
            }
            syncDirectories(parents);
        }

        @Override
        public long read(List<String> paths) throws IOException {
            long bytes = 0;
            for (byte[] b : readAll(paths)) {
                bytes += b.length;
            }
            return bytes;
        }

        @Override
        public List<byte[]> readAll(List<String> paths) throws IOException {
            List<byte[]> out = new ArrayList<>(paths.size());
            for (String p : paths) {
                out.add(Files.readAllBytes(at(p)));
            }
            return out;
        }

        @Override
        public void mkdirs(List<String> dirs) throws IOException {
            Set<Path> parents = new LinkedHashSet<>();
            for (String d : dirs) {
                Path p = at(d);
                Files.createDirectories(p);
                parents.add(p.getParent());
            }
            syncDirectories(parents);
        }

        @Override
        public void symlinks(List<Link> links) throws IOException {
            Set<Path> parents = new LinkedHashSet<>();
            for (Link l : links) {
                Path p = at(l.path());
                Files.createSymbolicLink(p, Path.of(l.target()));
                parents.add(p.getParent());
            }
            syncDirectories(parents);
        }

        @Override
        public List<String> readlinks(List<String> paths) throws IOException {
            List<String> out = new ArrayList<>(paths.size());
            for (String p : paths) {
                out.add(Files.readSymbolicLink(at(p)).toString());
            }
            return out;
        }

        @Override
        public List<Entry> listRecursive(String dir) throws IOException {
            Path base = at(dir);
            List<Entry> out = new ArrayList<>();
            try (Stream<Path> s = Files.walk(base)) {
                for (Path p : (Iterable<Path>) s::iterator) {
                    if (p.equals(base)) {
                        continue;
                    }
                    BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                    Kind kind = a.isDirectory() ? Kind.DIRECTORY : a.isSymbolicLink() ? Kind.SYMLINK
                            : a.isRegularFile() ? Kind.FILE : Kind.OTHER;
                    out.add(new Entry(root.relativize(p).toString(), kind, a.size()));
                }
            }
            return out;
        }

        @Override
        public void getattrs(List<String> paths) throws IOException {
            for (String p : paths) {
                Files.readAttributes(at(p), "unix:*", LinkOption.NOFOLLOW_LINKS);
            }
        }

        @Override
        public void remove(List<String> paths) throws IOException {
            Set<Path> parents = new LinkedHashSet<>();
            for (String p : paths) {
                Path at = at(p);
                Files.delete(at);
                parents.add(at.getParent());
            }
            parents.removeIf(d -> !Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS));
            syncDirectories(parents);
        }

        @Override
        public void close() {
        }
    }
}
