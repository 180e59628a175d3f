package org.tcnfs.server;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.tcnfs.nfs4.export.Export;
import org.tcnfs.nfs4.export.ExportOptions;
import org.tcnfs.nfs4.export.ExportRule;

/**
 * What a server logs as warnings at start when it is reachable beyond loopback with unsafe settings: an export
 * rule with {@code no_root_squash} (a client's root acts as root: device nodes, set-uid-root files, every
 * file), and the HTTP endpoints, which have no authentication. Nothing when the bind address is a loopback
 * address.
 */
public final class ExposureWarnings {
    private ExposureWarnings() {
    }

    /**
     * The warnings for a server on {@code bind:nfsPort} with these exports and the HTTP endpoints on
     * {@code httpPort} (empty: off), one line each.
     */
    public static List<String> of(String bind, int nfsPort, List<Export> exports, OptionalInt httpPort) {
        if (isLoopback(bind)) {
            return List.of();
        }
        List<String> warnings = new ArrayList<>();
        for (Export export : exports) {
            for (ExportRule rule : export.rules()) {
                if (rule.options().squash() == ExportOptions.Squash.NO_ROOT_SQUASH) {
                    warnings.add("export " + export.path() + " does not squash root for clients " + rule.clients()
                            + " (no_root_squash: their root may create device nodes and set-uid-root files and "
                            + "read every file) and tcnfs listens on " + bind + ":" + nfsPort + ", beyond loopback; "
                            + "use root_squash (the default) unless every client that reaches it is trusted");
                }
            }
        }
        if (httpPort.isPresent()) {
            warnings.add("the HTTP endpoints /metrics, /status and /health have no authentication and listen on "
                    + bind + ":" + httpPort.getAsInt() + ", beyond loopback (/status names the exported "
                    + "directories); keep that port to a management network, or set metrics-port=off");
        }
        return warnings;
    }

    /** Whether {@code bind} is a loopback address (an unresolvable name counts as not loopback). */
    static boolean isLoopback(String bind) {
        try {
            return InetAddress.getByName(bind).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
