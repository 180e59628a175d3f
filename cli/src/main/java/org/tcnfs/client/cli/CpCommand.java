package org.tcnfs.client.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.tcnfs.client.vector.DirEntry;
import org.tcnfs.client.vector.FileInfo;
import org.tcnfs.client.vector.Mode;
import org.tcnfs.client.vector.Parents;
import org.tcnfs.client.vector.Recursion;
import org.tcnfs.client.vector.RemotePath;
import org.tcnfs.client.vector.TxnItem;
import org.tcnfs.client.vector.VCopy;
import org.tcnfs.client.vector.VMkdir;
import org.tcnfs.client.vector.VRead;
import org.tcnfs.client.vector.VResult;
import org.tcnfs.client.vector.VSetattr;
import org.tcnfs.client.vector.VSymlink;
import org.tcnfs.client.vector.LocalData;
import org.tcnfs.client.vector.VWrite;
import org.tcnfs.client.vector.VWriteFrom;
import org.tcnfs.client.vector.VnfsClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tcnfs cp [-R] SRC... DST}: local to remote, remote to local, or remote to remote (one server). Like
 * {@code cp}: into DST when it is an existing directory, else as DST. Trees need -R; regular files, directories
 * and symbolic links are copied, everything else is skipped.
 */
@Command(name = "cp", mixinStandardHelpOptions = true,
        description = "Copy files and trees between local paths and nfs:// URLs (at least one side remote).")
final class CpCommand extends BaseCommand {
    @Option(names = {"-R", "-r"}, description = "copy directories recursively")
    boolean recursive;

    @Option(names = "--txn", description = "the remote side changes in one transaction: all copied or nothing")
    boolean txn;

    @Option(names = {"-p", "--preserve"}, description = "keep modes and modification times of files (execute "
            + "bits are kept anyway)")
    boolean preserve;

    @Parameters(arity = "2..*", paramLabel = "SRC... DST")
    List<String> args;

    @Override
    void run() throws Exception {
        List<String> sources = args.subList(0, args.size() - 1);
        String dst = args.get(args.size() - 1);
        boolean remoteSources = NfsUrl.isUrl(sources.get(0));
        for (String s : sources) {
            if (NfsUrl.isUrl(s) != remoteSources) {
                throw new CliException(ExitCode.USAGE, "cp: sources must be all local or all remote");
            }
        }
        if (!remoteSources && NfsUrl.isUrl(dst)) {
            localToRemote(sources, url(dst), NfsUrl.endsWithSlash(dst));
        } else if (remoteSources && !NfsUrl.isUrl(dst)) {
            remoteToLocal(urls(sources), Path.of(dst));
        } else if (remoteSources) {
            List<String> all = new ArrayList<>(sources);
            all.add(dst);
            List<NfsUrl> u = urls(all);
            remoteToRemote(u.subList(0, u.size() - 1), u.get(u.size() - 1));
        } else {
            throw new CliException(ExitCode.USAGE, "cp: one side must be an nfs:// URL");
        }
    }

    private void localToRemote(List<String> sources, NfsUrl dst, boolean slash) throws Exception {
        try (VnfsClient nfs = connect(dst)) {
            FileInfo d = statOrNull(nfs, dst.path());
            boolean into = d != null && d.isDirectory();
            if ((sources.size() > 1 || slash) && !into) {
                throw new CliException(ExitCode.NFS_ERROR, "cp: " + dst + " is not a directory");
            }
            if (!txn) {
                localToRemotePlain(nfs, sources, dst, into);
                return;
            }
            List<String> dirs = new ArrayList<>();
            List<TxnItem> items = new ArrayList<>();
            List<String> labels = new ArrayList<>();
            for (String s : sources) {
                Path src = Path.of(s);
                String base = into ? RemotePath.join(dst.path(), src.getFileName().toString()) : dst.path();
                if (Files.isDirectory(src)) {
                    requireRecursive(s, ExitCode.LOCAL_IO);
                    walkLocal(src, base, dirs, items, labels);
                } else if (Files.isRegularFile(src)) {
                    items.add(streamed(base, src));
                    labels.add(s);
                } else {
                    throw new CliException(ExitCode.LOCAL_IO, "cp: " + s + ": no such file");
                }
            }
            Mode mode = mode(txn);
            progress().start("cp", dirs.size() + items.size());
            if (mode == Mode.TRANSACTION) {
                List<TxnItem> all = new ArrayList<>();
                List<String> allLabels = new ArrayList<>();
                for (String m : nfs.missingDirectories(dirs)) {
                    all.add(new VMkdir(m));
                    allLabels.add(dst.withPath(m).toString());
                }
                all.addAll(items);
                allLabels.addAll(labels);
                try {
                    check(nfs.vtxn(all), allLabels, "cp");
                } catch (java.io.UncheckedIOException e) {
                    throw new CliException(ExitCode.LOCAL_IO, "cp: " + LocalErrors.describe(e.getCause())
                            + "; transaction aborted, nothing changed");
                }
            } else {
                check(nfs.vmkdir(dirs, Mode.PLAIN, Parents.CREATE), dirs, "cp (mkdir)");
                check(nfs.vapply(items, Mode.PLAIN), labels, "cp");
            }
        }
    }

    /** A local tree's entry to copy: the local path and where it goes. */
    private record Entry(Path local, String remote) {
    }

    /** Local to remote without a transaction: files streamed or batched by {@link Transfers}. */
    private void localToRemotePlain(VnfsClient nfs, List<String> sources, NfsUrl dst, boolean into)
            throws Exception {
        List<Entry> entries = new ArrayList<>();
        long total = 0;
        for (String s : sources) {
            Path src = Path.of(s);
            String base = into ? RemotePath.join(dst.path(), src.getFileName().toString()) : dst.path();
            if (Files.isDirectory(src)) {
                requireRecursive(s, ExitCode.LOCAL_IO);
                try (Stream<Path> walk = Files.walk(src)) {
                    for (Path p : (Iterable<Path>) walk::iterator) {
                        String rel = src.relativize(p).toString().replace(java.io.File.separatorChar, '/');
                        entries.add(new Entry(p, RemotePath.join(base, rel)));
                        if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                            total += Files.size(p);
                        }
                    }
                } catch (IOException | java.io.UncheckedIOException e) {
                    throw new CliException(ExitCode.LOCAL_IO, "cp: " + src + ": " + e.getMessage());
                }
            } else if (Files.isRegularFile(src)) {
                entries.add(new Entry(src, base));
                total += PutCommand.size(src);
            } else {
                throw new CliException(ExitCode.LOCAL_IO, "cp: " + s + ": no such file");
            }
        }
        progress().startBytes("cp", total);
        Transfers t = new Transfers(nfs, progress(), "cp");
        List<VSetattr> dirAttrs = new ArrayList<>();
        for (Entry e : entries) {
            Path p = e.local();
            if (Files.isSymbolicLink(p)) {
                try {
                    t.item(new VSymlink(e.remote(), Files.readSymbolicLink(p).toString()), p.toString());
                } catch (IOException ex) {
                    throw new CliException(ExitCode.LOCAL_IO, "cp: " + p + ": " + ex.getMessage());
                }
            } else if (Files.isDirectory(p)) {
                t.mkdir(e.remote());
                if (preserve) {
                    dirAttrs.add(0, new VSetattr(e.remote(), OptionalInt.of(localMode(p, 0755)), OptionalLong.empty(),
                            Optional.empty(), Optional.empty(), Optional.of(PutCommand.localTime(p))));
                }
            } else if (Files.isRegularFile(p)) {
                t.upload(p, e.remote(), localMode(p, 0644), preserve ? PutCommand.localTime(p) : null, p.toString());
            }
        }
        t.finish();
        // deepest first (the walk lists parents before children), after the entries are complete
        check(nfs.vsetattrs(dirAttrs, Mode.PLAIN), dirAttrs.stream().map(VSetattr::path).toList(), "cp");
    }

    /**
     * The write of the local file {@code local} to {@code remote} with its mode, its bytes read as they are sent
     * (so a transaction of any size needs about a compound of memory).
     */
    private static TxnItem streamed(String remote, Path local) throws CliException {
        return new VWriteFrom(remote, LocalData.of(local), 0, PutCommand.size(local), localMode(local, 0644));
    }

    private static void walkLocal(Path root, String base, List<String> dirs, List<TxnItem> items, List<String> labels)
            throws CliException {
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                String rel = root.relativize(p).toString().replace(java.io.File.separatorChar, '/');
                String remote = RemotePath.join(base, rel);
                if (Files.isSymbolicLink(p)) {
                    items.add(new VSymlink(remote, Files.readSymbolicLink(p).toString()));
                    labels.add(p.toString());
                } else if (Files.isDirectory(p)) {
                    dirs.add(remote);
                } else if (Files.isRegularFile(p)) {
                    items.add(streamed(remote, p));
                    labels.add(p.toString());
                }
            }
        } catch (IOException e) {
            throw new CliException(ExitCode.LOCAL_IO, "cp: " + root + ": " + e.getMessage());
        }
    }

    private static int localMode(Path p, int fallback) {
        try {
            Object mode = Files.getAttribute(p, "unix:mode");
            return ((Integer) mode) & 07777;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return fallback;
        }
    }

    /** The attributes of every remote source, or the failure of the first that cannot be read. */
    private static VResult<FileInfo> statSources(VnfsClient nfs, List<NfsUrl> sources)
            throws IOException, CliException {
        VResult<FileInfo> infos = nfs.vgetattrs(sources.stream().map(NfsUrl::path).toList(), Mode.PLAIN);
        check(infos, sources.stream().map(NfsUrl::toString).toList(), "cp");
        return infos;
    }

    /** Refuses to copy the directory {@code source} without {@code -R}, exiting with {@code status}. */
    private void requireRecursive(String source, ExitCode status) throws CliException {
        if (!recursive) {
            throw new CliException(status, "cp: " + source + " is a directory (use -R)");
        }
    }

    /** Everything below the remote directory {@code source}, paths relative to the export root. */
    private static List<DirEntry> listTree(VnfsClient nfs, NfsUrl source) throws IOException, CliException {
        VResult<List<DirEntry>> listed = nfs.vlistdir(List.of(source.path()), Recursion.RECURSIVE, Mode.PLAIN);
        check(listed, List.of(source.toString()), "cp");
        return listed.value(0);
    }

    private void remoteToLocal(List<NfsUrl> sources, Path dst) throws Exception {
        boolean into = Files.isDirectory(dst);
        if (sources.size() > 1 && !into) {
            throw new CliException(ExitCode.LOCAL_IO, "cp: " + dst + " is not a directory");
        }
        try (VnfsClient nfs = connect(sources.get(0))) {
            VResult<FileInfo> infos = statSources(nfs, sources);
            List<Path> localDirs = new ArrayList<>();
            List<FileInfo> localDirInfos = new ArrayList<>();
            List<String> files = new ArrayList<>();
            List<FileInfo> fileInfos = new ArrayList<>();
            List<Path> targets = new ArrayList<>();
            List<String> links = new ArrayList<>();
            List<Path> linkTargets = new ArrayList<>();
            for (int i = 0; i < sources.size(); i++) {
                String p = sources.get(i).path();
                Path target = into ? dst.resolve(p.isEmpty() ? "root" : RemotePath.name(p)) : dst;
                FileInfo info = infos.value(i);
                if (info.isDirectory()) {
                    requireRecursive(sources.get(i).toString(), ExitCode.NFS_ERROR);
                    mkdirs(target);
                    localDirs.add(target);
                    localDirInfos.add(info);
                    List<DirEntry> entries = new ArrayList<>(listTree(nfs, sources.get(i)));
                    entries.sort(java.util.Comparator.comparing(DirEntry::path));
                    for (DirEntry e : entries) {
                        String rel = p.isEmpty() ? e.path() : e.path().substring(p.length() + 1);
                        Path local = target.resolve(rel);
                        switch (e.info().type()) {
                            case DIRECTORY -> {
                                mkdirs(local);
                                localDirs.add(local);
                                localDirInfos.add(e.info());
                            }
                            case REGULAR -> {
                                files.add(e.path());
                                fileInfos.add(e.info());
                                targets.add(local);
                            }
                            case SYMLINK -> {
                                links.add(e.path());
                                linkTargets.add(local);
                            }
                            default -> { }
                        }
                    }
                } else if (info.type() == FileInfo.FileType.SYMLINK) {
                    links.add(p);
                    linkTargets.add(target);
                } else {
                    files.add(p);
                    fileInfos.add(info);
                    targets.add(target);
                }
            }
            progress().startBytes("cp", fileInfos.stream().mapToLong(FileInfo::size).sum());
            Transfers t = new Transfers(nfs, progress(), "cp");
            for (int i = 0; i < files.size(); i++) {
                t.download(files.get(i), fileInfos.get(i), targets.get(i), preserve, files.get(i));
            }
            t.finish();
            VResult<String> texts = nfs.vreadlink(links, Mode.PLAIN);
            check(texts, links, "cp");
            for (int i = 0; i < links.size(); i++) {
                try {
                    Files.createSymbolicLink(linkTargets.get(i), Path.of(texts.value(i)));
                } catch (IOException e) {
                    throw new CliException(ExitCode.LOCAL_IO, "cp: " + linkTargets.get(i) + ": " + e.getMessage());
                }
            }
            if (preserve) {
                // deepest first: setting a directory's time after its entries are complete
                for (int i = localDirs.size() - 1; i >= 0; i--) {
                    Transfers.setLocal(localDirs.get(i), localDirInfos.get(i).mode() & 0777,
                            localDirInfos.get(i).modifyTime(), "cp");
                }
            }
        }
    }

    private static String sourceLabel(NfsUrl any, String path) {
        return any.withPath(path).toString();
    }

    private static void mkdirs(Path dir) throws CliException {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new CliException(ExitCode.LOCAL_IO, "cp: " + dir + ": " + e.getMessage());
        }
    }

    private void remoteToRemote(List<NfsUrl> sources, NfsUrl dst) throws Exception {
        try (VnfsClient nfs = connect(dst)) {
            FileInfo d = statOrNull(nfs, dst.path());
            boolean into = d != null && d.isDirectory();
            if (sources.size() > 1 && !into) {
                throw new CliException(ExitCode.NFS_ERROR, "cp: " + dst + " is not a directory");
            }
            VResult<FileInfo> infos = statSources(nfs, sources);
            List<String> dirs = new ArrayList<>();
            List<VCopy> copies = new ArrayList<>();
            List<FileInfo> copyInfos = new ArrayList<>();
            List<FileInfo> dirInfos = new ArrayList<>();
            for (int i = 0; i < sources.size(); i++) {
                String p = sources.get(i).path();
                String base = into ? RemotePath.join(dst.path(), RemotePath.name(p)) : dst.path();
                if (infos.value(i).isDirectory()) {
                    requireRecursive(sources.get(i).toString(), ExitCode.NFS_ERROR);
                    if (RemotePath.isWithin(base, p)) {
                        throw new CliException(ExitCode.USAGE, "cp: cannot copy " + sources.get(i) + " into itself");
                    }
                    dirs.add(base);
                    dirInfos.add(infos.value(i));
                    for (DirEntry e : listTree(nfs, sources.get(i))) {
                        String target = RemotePath.join(base, e.path().substring(p.length() + (p.isEmpty() ? 0 : 1)));
                        if (e.info().isDirectory()) {
                            dirs.add(target);
                            dirInfos.add(e.info());
                        } else if (e.info().type() == FileInfo.FileType.REGULAR) {
                            copies.add(new VCopy(e.path(), target));
                            copyInfos.add(e.info());
                        }
                    }
                } else {
                    copies.add(new VCopy(p, base));
                    copyInfos.add(infos.value(i));
                }
            }
            if (!txn) {
                progress().startBytes("cp", copyInfos.stream().mapToLong(FileInfo::size).sum());
                Transfers t = new Transfers(nfs, progress(), "cp");
                for (String dir : dirs) {
                    t.mkdir(dir);
                }
                for (int i = 0; i < copies.size(); i++) {
                    VCopy c = copies.get(i);
                    t.copy(c.from(), copyInfos.get(i), c.to(), preserve, sourceLabel(dst, c.from()));
                }
                t.finish();
                if (preserve) {
                    List<VSetattr> attrs = new ArrayList<>();
                    for (int i = 0; i < dirs.size(); i++) {
                        attrs.add(0, new VSetattr(dirs.get(i), OptionalInt.of(dirInfos.get(i).mode() & 07777),
                                OptionalLong.empty(), Optional.empty(), Optional.empty(),
                                Optional.of(dirInfos.get(i).modifyTime())));
                    }
                    check(nfs.vsetattrs(attrs, Mode.PLAIN), attrs.stream().map(VSetattr::path).toList(), "cp");
                }
                return;
            }
            progress().start("cp", copies.size());
            Mode mode = mode(txn);
            if (mode == Mode.TRANSACTION) {
                VResult<byte[]> data = nfs.vread(copies.stream().map(c -> VRead.whole(c.from())).toList(), Mode.PLAIN);
                check(data, copies.stream().map(VCopy::from).toList(), "cp");
                List<TxnItem> all = new ArrayList<>();
                List<String> labels = new ArrayList<>();
                for (String m : nfs.missingDirectories(dirs)) {
                    all.add(new VMkdir(m));
                    labels.add(m);
                }
                for (int i = 0; i < copies.size(); i++) {
                    all.add(VWrite.create(copies.get(i).to(), data.value(i)));
                    labels.add(copies.get(i).to());
                }
                check(nfs.vtxn(all), labels, "cp");
            } else {
                check(nfs.vmkdir(dirs, Mode.PLAIN, Parents.CREATE), dirs, "cp (mkdir)");
                check(nfs.vcopy(copies, Mode.PLAIN), copies.stream().map(VCopy::from).toList(), "cp");
            }
        }
    }
}
