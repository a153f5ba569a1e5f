package io.ringwatch.replay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.persistence.LogConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code republish} carries leases (before: keys and values only, so a log replayed into another
 * engine lost every grant, attachment and end, and the target's keys never expired): the target
 * holds the same leases with the same ids and TTLs, each key attached as in the source, each lease
 * end re-made as one revision deleting the same keys, and the same revision numbers; from a later
 * revision the leases live there go in with the base state. A put whose lease grant the lease log
 * no longer records is refused with exit code 5 and a message saying so, not silently unleased.
 */
class LeaseRepublishTest
{
    @TempDir
    Path temp;

    private RingWatchConfig config(final Path dir)
    {
        return RingWatchConfig.builder().persistence(LogConfig.builder(dir).build()).build();
    }

    /** Revisions: 1 a(5), 2 b, 3 c(6), 4 delete a (end of 5), 5 d(6), 6 e(8); lease 7 ends with no key. */
    private long writeSource(final Path dir)
    {
        try (RingWatch engine = RingWatch.open(config(dir)))
        {
            engine.leases().grant(5, 60);
            engine.write(Op.put("a", "1").withLease(5));
            engine.write(Op.put("b", "2"));
            engine.leases().grant(6, 90);
            engine.write(Op.put("c", "3").withLease(6));
            engine.leases().revoke(5);
            engine.leases().grant(7, 30);
            engine.leases().revoke(7);
            engine.write(Op.put("d", "4").withLease(6));
            engine.leases().grant(8, 120);
            engine.write(Op.put("e", "5").withLease(8));
            return engine.currentRevision();
        }
    }

    @Test
    void leasesSurviveARepublishWithTheSameIdsTtlsAttachmentsEndsAndRevisions()
    {
        final Path source = temp.resolve("source");
        final long last = writeSource(source);
        final Path target = temp.resolve("target");
        final HistoryFixture.Run run = HistoryFixture.run("republish", source.toString(), "--into", target.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(leaseLines(source), leaseLines(target), "the same grants and ends after the same revisions");
        try (RingWatch engine = RingWatch.open(config(target)))
        {
            assertEquals(last, engine.currentRevision());
            assertArrayEquals(new long[] {6, 8}, engine.leases().leases());
            assertEquals(90, engine.leases().timeToLive(6, false).grantedTtlSeconds());
            assertEquals(120, engine.leases().timeToLive(8, false).grantedTtlSeconds());
            assertFalse(engine.get("a").isPresent(), "the end of lease 5 deleted a");
            assertEquals(0, engine.get("b").orElseThrow().lease());
            assertEquals(6, engine.get("c").orElseThrow().lease());
            assertEquals(6, engine.get("d").orElseThrow().lease());
            assertEquals(8, engine.get("e").orElseThrow().lease());
            assertEquals(2, engine.get("b").orElseThrow().modRevision(), "b is still revision 2");
            // The revoke in the target ends lease 6 with its keys, as in the source.
            engine.leases().revoke(6);
            assertFalse(engine.get("c").isPresent());
        }
    }

    @Test
    void fromALaterRevisionTheLeasesLiveThereGoInWithTheBase()
    {
        final Path source = temp.resolve("source");
        writeSource(source);
        final Path target = temp.resolve("target");
        final HistoryFixture.Run run = HistoryFixture.run("republish", source.toString(), "--into", target.toString(), "--from", "4");
        assertEquals(0, run.exitCode(), run.err());
        try (RingWatch engine = RingWatch.open(config(target)))
        {
            assertArrayEquals(new long[] {6, 8}, engine.leases().leases());
            assertFalse(engine.get("a").isPresent());
            assertEquals(6, engine.get("c").orElseThrow().lease());
            assertEquals(6, engine.get("d").orElseThrow().lease());
        }
    }

    @Test
    void aPutWhoseGrantTheLeaseLogNoLongerRecordsIsRefusedNamingIt() throws Exception
    {
        final Path source = temp.resolve("source");
        writeSource(source);
        // The grants are gone (as after a rewrite that dropped ended leases); the puts still name them.
        java.nio.file.Files.delete(source.resolve(io.ringwatch.persistence.LeaseFile.NAME));
        final Path target = temp.resolve("target");
        final HistoryFixture.Run run = HistoryFixture.run("republish", source.toString(), "--into", target.toString());
        assertEquals(ExitCodes.REPUBLISH_FAILED, run.exitCode(), run.err());
        assertTrue(run.err().contains("lease 5") && run.err().contains("no longer records"), run.err());
    }

    private static List<String> leaseLines(final Path dir)
    {
        final HistoryFixture.Run print = HistoryFixture.run("print", dir.toString());
        assertEquals(0, print.exitCode(), print.err());
        return print.out().lines().filter(l -> l.contains("LEASE_")).toList();
    }
}
