package org.tcnfs.it;

import java.nio.file.Path;

/** {@link TransactionalCompoundsContract} on the default work directory of the integration tests. */
class TransactionalCompoundsIT extends TransactionalCompoundsContract {
    @Override
    Path workDirectory() {
        return ServerProcess.defaultWorkDirectory();
    }
}
