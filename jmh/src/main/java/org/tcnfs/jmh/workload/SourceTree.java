package org.tcnfs.jmh.workload;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * A generated source-like tree, the same for the same arguments: directories nested up to {@value #MAX_DEPTH}
 * deep, files with log-normally distributed sizes around a mean (most small, a few large, as in a source tree),
 * and symbolic links to files of the tree by relative path. Paths are relative to the tree's root.
 *
 * @param dirs directories, parents before children
 * @param files files with their sizes
 * @param symlinks links with their relative targets
 */
record SourceTree(List<String> dirs, List<FileSpec> files, List<FsSession.Link> symlinks) {
    static final int MAX_DEPTH = 6;
    private static final String[] DIR_NAMES = {"src", "lib", "include", "core", "util", "net", "fs", "test", "doc",
        "drivers", "arch", "kernel", "tools", "api", "impl", "io"};
    private static final String[] EXTENSIONS = {".c", ".h", ".java", ".py", ".md", ".txt", ".S", ".rs"};

    SourceTree {
        dirs = List.copyOf(dirs);
        files = List.copyOf(files);
        symlinks = List.copyOf(symlinks);
    }

    /** A file of the tree. */
    record FileSpec(String path, int size) {
    }

    /**
     * Generates a tree.
     *
     * @param seed the random seed: equal arguments give equal trees
     * @param dirCount directories (at least 1)
     * @param fileCount files
     * @param symlinkCount symbolic links (0 when there are no files)
     * @param meanSize the files' mean size in bytes before clamping to [64, 16 x mean]
     */
    static SourceTree generate(long seed, int dirCount, int fileCount, int symlinkCount, int meanSize) {
        if (dirCount < 1 || fileCount < 0 || symlinkCount < 0 || meanSize < 64) {
            throw new IllegalArgumentException("dirs " + dirCount + ", files " + fileCount + ", symlinks "
                    + symlinkCount + ", mean size " + meanSize);
        }
        Random rnd = new Random(seed);
        List<String> dirs = new ArrayList<>();
        List<Integer> depths = new ArrayList<>();
        dirs.add("src");
        depths.add(1);
        for (int i = 1; i < dirCount; i++) {
            int parent = rnd.nextInt(i);
            String name = DIR_NAMES[rnd.nextInt(DIR_NAMES.length)] + i;
            if (depths.get(parent) >= MAX_DEPTH) {
                dirs.add(name);
                depths.add(1);
            } else {
                dirs.add(dirs.get(parent) + "/" + name);
                depths.add(depths.get(parent) + 1);
            }
        }
        double sigma = 1.0;
        double mu = Math.log(meanSize) - sigma * sigma / 2;
        List<FileSpec> files = new ArrayList<>();
        for (int i = 0; i < fileCount; i++) {
            String dir = dirs.get(rnd.nextInt(dirs.size()));
            String ext = EXTENSIONS[rnd.nextInt(EXTENSIONS.length)];
            long size = Math.round(Math.exp(mu + sigma * rnd.nextGaussian()));
            int clamped = (int) Math.max(64, Math.min(16L * meanSize, size));
            files.add(new FileSpec(dir + "/file" + i + ext, clamped));
        }
        List<FsSession.Link> links = new ArrayList<>();
        for (int i = 0; i < symlinkCount && !files.isEmpty(); i++) {
            int d = rnd.nextInt(dirs.size());
            String target = files.get(rnd.nextInt(files.size())).path();
            links.add(new FsSession.Link(dirs.get(d) + "/link" + i, "../".repeat(depths.get(d)) + target));
        }
        return new SourceTree(dirs, files, links);
    }

    /** The sum of the files' sizes. */
    long bytes() {
        long sum = 0;
        for (FileSpec f : files) {
            sum += f.size();
        }
        return sum;
    }

    /** The directories, deepest first (the order rm -rf removes them in). */
    List<String> dirsDeepestFirst() {
        List<String> out = new ArrayList<>(dirs);
        Collections.reverse(out);
        out.sort((a, b) -> Integer.compare(depth(b), depth(a)));
        return out;
    }

    static int depth(String path) {
        return (int) path.chars().filter(c -> c == '/').count() + 1;
    }
}
