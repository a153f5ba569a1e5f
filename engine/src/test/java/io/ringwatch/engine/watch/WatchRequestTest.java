package io.ringwatch.engine.watch;

import io.ringwatch.engine.kv.KeyRange;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * A watch request has value equality: equal when it asks for the same keys or index value, from the
 * same revision, with the same options, whichever instances hold them.
 */
class WatchRequestTest
{
    @Test
    void requestsForTheSameThingAreEqualAndHashAlike()
    {
        final WatchRequest one = WatchRequest.of(KeyRange.key("k")).startRevision(7).withPrevKv().noPut().withProgressNotify();
        final WatchRequest other = WatchRequest.of(KeyRange.key("k".getBytes())).withProgressNotify().noPut().withPrevKv()
            .startRevision(7);
        assertEquals(one, other);
        assertEquals(one.hashCode(), other.hashCode());
        assertEquals(WatchRequest.byIndex("ns", "a").noDelete(), WatchRequest.byIndex("ns", "a".getBytes()).noDelete());
        assertEquals(WatchRequest.byIndex("ns", "a").hashCode(), WatchRequest.byIndex("ns", "a".getBytes()).hashCode());
    }

    @Test
    void eachFieldTellsRequestsApart()
    {
        final WatchRequest base = WatchRequest.of(KeyRange.prefix("p/"));
        assertNotEquals(base, WatchRequest.of(KeyRange.prefix("q/")));
        assertNotEquals(base, WatchRequest.of(KeyRange.key("p/")));
        assertNotEquals(base, base.startRevision(1));
        assertNotEquals(base, base.withPrevKv());
        assertNotEquals(base, base.noPut());
        assertNotEquals(base, base.noDelete());
        assertNotEquals(base, base.withProgressNotify());
        assertNotEquals(base, WatchRequest.of(KeyRange.all()));
        assertNotEquals(WatchRequest.of(KeyRange.all()), WatchRequest.byIndex("ns", "a"));
        assertNotEquals(WatchRequest.byIndex("ns", "a"), WatchRequest.byIndex("ns", "b"));
        assertNotEquals(WatchRequest.byIndex("ns", "a"), WatchRequest.byIndex("label", "a"));
        assertNotEquals(base, null);
    }
}
