package io.ringwatch.server;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * etcd's key-value store reduced to what a watch sees, for checking the server's watch streams
 * against: the live keys, and the events of every revision in the order etcd emits them (a
 * transaction's operations in order, a range delete's keys in key order). A write that changes
 * nothing (a delete of absent keys, a transaction whose branch deletes nothing) makes no revision,
 * as in etcd. Events are rendered as text so that a mismatch prints readably. Not thread-safe:
 * the test thread alone drives it.
 */
final class WatchModel
{
    /** One key's value and revisions, as etcd's mvccpb.KeyValue. */
    record Kv(String value, long createRevision, long modRevision, long version)
    {
    }

    /** One event: its revision, key and the text a watch with or without prev_kv must receive. */
    record Event(long revision, String key, boolean put, String withoutPrevKv, String withPrevKv)
    {
    }

    private final TreeMap<String, Kv> live = new TreeMap<>();
    private final List<Event> events = new ArrayList<>();
    private long revision;
    private long compactRevision;

    WatchModel(final long revision)
    {
        this.revision = revision;
    }

    long revision()
    {
        return revision;
    }

    long compactRevision()
    {
        return compactRevision;
    }

    String value(final String key)
    {
        final Kv kv = live.get(key);
        return kv == null ? null : kv.value();
    }

    /** A write of puts (key, value pairs) then deletes, in one revision if it changes anything. */
    void write(final List<String[]> puts, final List<String> deletes)
    {
        final long next = revision + 1;
        boolean changed = false;
        for (final String[] put : puts)
        {
            final Kv prev = live.get(put[0]);
            final Kv kv = new Kv(put[1], prev == null ? next : prev.createRevision(), next, prev == null ? 1 : prev.version() + 1);
            live.put(put[0], kv);
            events.add(new Event(next, put[0], true, "PUT " + put[0] + " " + text(kv), "PUT " + put[0] + " " + text(kv) + prevText(prev)));
            changed = true;
        }
        for (final String key : deletes)
        {
            final Kv prev = live.remove(key);
            if (prev != null)
            {
                final String event = "DELETE " + key + " " + text(new Kv("", 0, next, 0));
                events.add(new Event(next, key, false, event, event + prevText(prev)));
                changed = true;
            }
        }
        if (changed)
        {
            revision = next;
        }
    }

    /** The live keys in [from, to), in key order: what a range delete removes. */
    List<String> keys(final String from, final String to)
    {
        return new ArrayList<>(live.subMap(from, to).keySet());
    }

    void compact(final long at)
    {
        compactRevision = at;
    }

    /**
     * @return the events a watch of [from, to) from {@code startRevision} with the given filters
     * must receive, in order.
     */
    List<Event> expected(final String from, final String to, final long startRevision, final boolean noPut,
        final boolean noDelete)
    {
        final List<Event> expected = new ArrayList<>();
        for (final Event event : events)
        {
            if (event.revision() >= startRevision && event.key().compareTo(from) >= 0 && event.key().compareTo(to) < 0
                && !(event.put() ? noPut : noDelete))
            {
                expected.add(event);
            }
        }
        return expected;
    }

    static String text(final Kv kv)
    {
        return "[" + kv.value() + " c" + kv.createRevision() + " m" + kv.modRevision() + " v" + kv.version() + "]";
    }

    private static String prevText(final Kv prev)
    {
        return prev == null ? "" : " prev=" + text(prev);
    }
}
