package org.tcnfs.jmh.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ReportTest {
    private static final List<Result> RESULTS = List.of(
            new Result("writefiles", "size=4K", "tcnfs-txn", 100, 409600, 2.0, ""),
            new Result("writefiles", "size=4K", "tcnfs", 100, 409600, 1.0, ""),
            new Result("writefiles", "size=4K", "ganesha", 100, 409600, 0.5, ""),
            Result.failed("macro", "untar, 10 files", "tcnfs-txn", "vwrite: NFS4ERR_DELAY"),
            new Result("macro", "untar, 10 files", "tcnfs", 10, 0, 0.25, ""));

    @Test
    void csvHasOneQuotedRowPerResultWithThroughput() {
        String[] lines = Report.csv(RESULTS).split("\n");
        assertThat(lines).hasSize(6);
        assertThat(lines[0]).isEqualTo(Report.CSV_HEADER);
        assertThat(lines[1]).isEqualTo("writefiles,size=4K,tcnfs-txn,100,409600,2.0000,50.00,0.195,");
        assertThat(lines[4]).isEqualTo("macro,\"untar, 10 files\",tcnfs-txn,0,0,0.0000,,,vwrite: NFS4ERR_DELAY");
    }

    @Test
    void csvFieldDoublesQuotes() {
        assertThat(Report.field("a\"b")).isEqualTo("\"a\"\"b\"");
        assertThat(Report.field("plain")).isEqualTo("plain");
    }

    @Test
    void markdownDividesEveryTargetByBaselineAndReference() {
        String md = Report.markdown(RESULTS, List.of("tcnfs-txn", "tcnfs", "ganesha"), "tcnfs", "ganesha");
        String[] lines = md.split("\n");
        assertThat(lines[0]).isEqualTo("| workload | parameter | tcnfs-txn ops/s | tcnfs ops/s | ganesha ops/s "
                + "| tcnfs-txn / tcnfs | ganesha / tcnfs | tcnfs-txn / ganesha | tcnfs / ganesha |");
        assertThat(lines[1]).isEqualTo("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        assertThat(lines[2]).isEqualTo("| writefiles | size=4K | 50.0 | 100 | 200 | 0.50 | 2.00 | 0.25 | 0.50 |");
        assertThat(lines[3]).isEqualTo("| macro | untar, 10 files | failed | 40.0 | - | - | - | - | - |");
        assertThat(lines).hasSize(4);
    }

    @Test
    void anAsyncTargetGetsItsRatioToTheReferenceNextToTheDefaultsAndANoteOnDurability() {
        List<Result> results = List.of(
                new Result("writefiles", "size=4K", "tcnfs", 100, 409600, 1.0, ""),
                new Result("writefiles", "size=4K", "tcnfs-async", 100, 409600, 0.25, ""),
                new Result("writefiles", "size=4K", "ganesha", 100, 409600, 0.5, ""));
        List<String> targets = List.of("tcnfs", "tcnfs-async", "ganesha");

        String[] lines = Report.markdown(results, targets, "tcnfs", "ganesha").split("\n");

        assertThat(lines[0]).isEqualTo("| workload | parameter | tcnfs ops/s | tcnfs-async ops/s | ganesha ops/s "
                + "| tcnfs-async / tcnfs | ganesha / tcnfs | tcnfs / ganesha | tcnfs-async / ganesha |");
        assertThat(lines[2]).isEqualTo("| writefiles | size=4K | 100 | 400 | 200 | 4.00 | 2.00 | 0.50 | 2.00 |");
        assertThat(Report.durabilityNote(targets, "tcnfs", "ganesha"))
                .startsWith("tcnfs-async / ganesha compares like with like in durability")
                .contains("tcnfs / ganesha compares tcnfs's default");
        assertThat(Report.durabilityNote(List.of("tcnfs", "ganesha"), "tcnfs", "ganesha")).isEmpty();
    }

    @Test
    void sizesRoundTrip() {
        assertThat(Sizes.parse("4K")).isEqualTo(4096);
        assertThat(Sizes.parse("128KiB")).isEqualTo(131072);
        assertThat(Sizes.parse("16m")).isEqualTo(16 << 20);
        assertThat(Sizes.format(131072)).isEqualTo("128K");
        assertThat(Sizes.format(1000)).isEqualTo("1000");
        assertThatThrownBy(() -> Sizes.parse("4X")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void targetsParseFromNameAndUrl() {
        Target.TargetSpec txn = Target.parse("tcnfs-txn=nfs://127.0.0.1:2049/?txn");
        assertThat(txn).isEqualTo(new Target.TargetSpec("tcnfs-txn", Target.TargetSpec.Kind.NFS, "127.0.0.1", 2049,
                "/", true));
        assertThat(Target.parse("ganesha=nfs://localhost:2050/export").transactions()).isFalse();
        assertThat(Target.parse("disk=disk:/mnt/x").path()).isEqualTo("/mnt/x");
        assertThatThrownBy(() -> Target.parse("nfs://h:1/")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Target.parse("x=nfs://h:1/?sync")).isInstanceOf(IllegalArgumentException.class);
    }
}
