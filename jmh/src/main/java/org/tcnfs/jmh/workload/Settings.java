package org.tcnfs.jmh.workload;

import java.util.List;

/**
 * Sizes and counts of every workload (the command line's options, validated).
 *
 * @param files files per writefiles/readfiles run (split among the clients)
 * @param sizes file sizes of writefiles and readfiles
 * @param clients concurrent client counts of writefiles and readfiles
 * @param perCompound files per call (one COMPOUND unless the server's limits split it) of every workload but
 *        the compounding-degree one
 * @param degreeFiles files per compounding-degree run
 * @param degrees files per call of the compounding-degree runs
 * @param degreeSizes file sizes of the compounding-degree runs
 * @param sharedClients clients of the shared-files runs
 * @param sharedFilesPerClient files each client writes in a shared-files run
 * @param sharedPercents percentages of each client's files that all clients share
 * @param sharedSize file size of the shared-files runs
 * @param macroDirs directories of the macro tree
 * @param macroFiles files of the macro tree
 * @param macroSymlinks symbolic links of the macro tree
 * @param macroMeanSize the macro tree's mean file size
 * @param seed seed of the generated tree, contents and shuffles
 * @param bigtxnFiles files each client writes in its one largest-transaction call
 * @param bigtxnFileSize size of each of those files
 * @param bigtxnClients concurrent client counts of the largest-transaction runs
 */
record Settings(int files, List<Integer> sizes, List<Integer> clients, int perCompound, int degreeFiles,
        List<Integer> degrees, List<Integer> degreeSizes, int sharedClients, int sharedFilesPerClient,
        List<Integer> sharedPercents, int sharedSize, int macroDirs, int macroFiles, int macroSymlinks,
        int macroMeanSize, long seed, int bigtxnFiles, int bigtxnFileSize, List<Integer> bigtxnClients) {
    Settings {
        sizes = List.copyOf(sizes);
        bigtxnClients = List.copyOf(bigtxnClients);
        clients = List.copyOf(clients);
        degrees = List.copyOf(degrees);
        degreeSizes = List.copyOf(degreeSizes);
        sharedPercents = List.copyOf(sharedPercents);
        positive("files", files);
        positive("per-compound", perCompound);
        positive("degree-files", degreeFiles);
        positive("shared-clients", sharedClients);
        positive("shared-files", sharedFilesPerClient);
        positive("shared-size", sharedSize);
        positive("macro-dirs", macroDirs);
        positive("macro-files", macroFiles);
        positive("macro-mean-size", macroMeanSize);
        positive("bigtxn-files", bigtxnFiles);
        positive("bigtxn-size", bigtxnFileSize);
        for (int c : bigtxnClients) {
            positive("bigtxn-clients", c);
        }
        for (int c : clients) {
            positive("clients", c);
        }
        for (int d : degrees) {
            positive("degrees", d);
        }
        for (int p : sharedPercents) {
            if (p < 0 || p > 100) {
                throw new IllegalArgumentException("shared percent " + p);
            }
        }
        if (macroSymlinks < 0) {
            throw new IllegalArgumentException("macro-symlinks " + macroSymlinks);
        }
    }

    private static void positive(String what, int v) {
        if (v < 1) {
            throw new IllegalArgumentException(what + " must be positive, not " + v);
        }
    }
}
