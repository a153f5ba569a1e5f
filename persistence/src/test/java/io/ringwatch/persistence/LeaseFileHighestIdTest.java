package io.ringwatch.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lease log remembers the highest id ever granted across restarts and rewrites, so a restarted
 * engine never hands out again an id a client may still hold; a rewrite keeps file order = revision order.
 */
class LeaseFileHighestIdTest
{
    @TempDir
    Path dir;

    @Test
    void anEndedHighestIdIsRememberedAtReopen()
    {
        try (LeaseFile leases = LeaseFile.open(dir, true, 10))
        {
            leases.grant(1, 30, 1);
            leases.grant(2, 30, 2);
            leases.grant(3, 30, 3);
            leases.revoke(3, 4);
            leases.revoke(2, 5);
            assertEquals(3, leases.highestId());
        }
        try (LeaseFile leases = LeaseFile.open(dir, true, 10))
        {
            assertEquals(List.of(1L), List.copyOf(leases.live().keySet()));
            assertEquals(3, leases.highestId());
        }
    }

    @Test
    void aRewriteKeepsTheHighestEndedGrantAndItsEndInRevisionOrder() throws Exception
    {
        final long ended = 2_049; // its end is the 4,097th record: the next append rewrites
        try (LeaseFile leases = LeaseFile.open(dir, true, 100_000))
        {
            leases.grant(1, 60, 1);
            long revision = 2;
            for (long id = 2; id <= ended; id++)
            {
                leases.grant(id, 60, revision++);
                leases.revoke(id, revision++);
            }
            // A client-chosen low id, granted after the highest one ended, then the append that rewrites.
            leases.grant(7, 45, revision++);
            leases.grant(8, 45, revision);
            assertEquals(ended, leases.highestId());
        }
        final long size = Files.size(dir.resolve(LeaseFile.NAME));
        assertTrue(size < 10 * LeaseFile.RECORD_LENGTH, "rewritten to the live grants and one ended pair: " + size + " bytes");
        final List<LeaseFile.Record> records = LeaseFile.read(dir);
        for (int i = 1; i < records.size(); i++)
        {
            assertTrue(records.get(i - 1).revision() <= records.get(i).revision(), "file order is revision order: " + records);
        }
        assertTrue(records.contains(new LeaseFile.Record(LeaseFile.REVOKE, ended, 0, 2 * ended - 1)), records::toString);
        try (LeaseFile leases = LeaseFile.open(dir, true, 100_000))
        {
            assertEquals(ended, leases.highestId());
            final Map<Long, long[]> live = leases.live();
            assertEquals(List.of(1L, 7L, 8L), List.copyOf(live.keySet()), "the ended highest lease does not revive");
        }
    }

    @Test
    void aHighestLeaseStillLiveNeedsNoExtraRecord()
    {
        try (LeaseFile leases = LeaseFile.open(dir, true, 10))
        {
            leases.grant(5, 30, 1);
            leases.grant(9, 30, 2);
            leases.revoke(5, 3);
        }
        try (LeaseFile leases = LeaseFile.open(dir, true, 10))
        {
            assertEquals(9, leases.highestId());
            assertEquals(List.of(9L), List.copyOf(leases.live().keySet()));
        }
    }
}
