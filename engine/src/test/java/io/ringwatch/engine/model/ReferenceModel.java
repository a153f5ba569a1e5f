package io.ringwatch.engine.model;

import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.EventType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The sequential specification the engine is checked against: a sorted map of key-values with
 * etcd's revision rules, and the full history of events it produced. Single-threaded.
 */
final class ReferenceModel
{
    private final TreeMap<byte[], KeyValue> state = new TreeMap<>(Arrays::compareUnsigned);
    private final List<Event> history = new ArrayList<>();
    private long revision;

    long revision()
    {
        return revision;
    }

    List<Event> history()
    {
        return history;
    }

    KeyValue get(final byte[] key)
    {
        return state.get(key);
    }

    /** Starts the mutations of the next revision; {@link #commit()} ends them. */
    long pending()
    {
        return revision + 1;
    }

    void put(final byte[] key, final byte[] value)
    {
        final long rev = pending();
        final KeyValue prev = state.get(key);
        final KeyValue next = new KeyValue(key, value, prev == null ? rev : prev.createRevision(), rev,
            prev == null ? 1 : prev.version() + 1);
        state.put(key, next);
        history.add(new Event(EventType.PUT, next, prev));
    }

    int delete(final KeyRange range)
    {
        final List<byte[]> doomed = new ArrayList<>();
        for (final Map.Entry<byte[], KeyValue> e : state.entrySet())
        {
            if (range.contains(e.getKey()))
            {
                doomed.add(e.getKey());
            }
        }
        for (final byte[] key : doomed)
        {
            final KeyValue prev = state.remove(key);
            history.add(new Event(EventType.DELETE, new KeyValue(key, new byte[0], 0, pending(), 0), prev));
        }
        return doomed.size();
    }

    int countIn(final KeyRange range)
    {
        int count = 0;
        for (final byte[] key : state.keySet())
        {
            if (range.contains(key))
            {
                count++;
            }
        }
        return count;
    }

    void commit()
    {
        revision++;
    }

    List<KeyValue> range(final KeyRange range)
    {
        final List<KeyValue> kvs = new ArrayList<>();
        for (final Map.Entry<byte[], KeyValue> e : state.entrySet())
        {
            if (range.contains(e.getKey()))
            {
                kvs.add(e.getValue());
            }
        }
        return kvs;
    }

    /**
     * @return the state a fresh model reaches by replaying history up to {@code atRevision}.
     */
    static TreeMap<byte[], KeyValue> stateAt(final List<Event> history, final long atRevision)
    {
        final TreeMap<byte[], KeyValue> at = new TreeMap<>(Arrays::compareUnsigned);
        for (final Event event : history)
        {
            if (event.revision() > atRevision)
            {
                break;
            }
            if (event.type() == EventType.PUT)
            {
                at.put(event.kv().key(), event.kv());
            }
            else
            {
                at.remove(event.kv().key());
            }
        }
        return at;
    }
}
