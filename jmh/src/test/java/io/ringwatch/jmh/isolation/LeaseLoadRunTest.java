package io.ringwatch.jmh.isolation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A small run of {@link LeaseLoadRun} in the build: the load runs, leases are renewed and replaced. */
class LeaseLoadRunTest
{
    @Test
    void aSmallRunRenewsAndReplacesLeasesAndTimesEveryPut() throws InterruptedException
    {
        final LeaseLoadRun.Figures figures = LeaseLoadRun.run(1_000, 2, 3, 500);

        assertTrue(figures.ok(), figures.toString());
        assertEquals(1_500, figures.with().length);
        assertTrue(figures.heapPerLease() > 0, figures.toString());
        assertTrue(figures.toString().contains("1,000 leases (TTL 2 s, one key each)"), figures.toString());
    }
}
