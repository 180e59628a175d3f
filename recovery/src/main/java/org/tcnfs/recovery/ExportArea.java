package org.tcnfs.recovery;

import java.nio.file.Path;
import java.util.Objects;
import org.tcnfs.txn.backup.BackupStore;

/**
 * What recovery needs of one export.
 *
 * @param exportId the export's id in the handle table (records name it)
 * @param root its local root directory
 * @param backups its backup area
 */
public record ExportArea(String exportId, Path root, BackupStore backups) {
    public ExportArea {
        Objects.requireNonNull(exportId, "exportId");
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(backups, "backups");
    }
}
