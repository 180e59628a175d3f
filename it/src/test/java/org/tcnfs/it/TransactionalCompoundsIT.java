package org.tcnfs.it;

import java.nio.file.Path;
import java.nio.file.Paths;

/** {@link TransactionalCompoundsContract} on the default work directory of the integration tests. */
class TransactionalCompoundsIT extends TransactionalCompoundsContract {
    @Override
    Path workDirectory() {
        return Paths.get(System.getProperty("tcnfs.it.work", System.getProperty("java.io.tmpdir")));
    }
}
