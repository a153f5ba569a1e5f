package io.ringwatch.engine.internal.secondary;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.EventType;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The sequential reference for the secondary-index tests: a sorted map of key-values with etcd's
 * revision rules, the history of every change, and brute-force index queries over any revision.
 * {@link #step} draws one random write (put, delete, prefix delete, transaction), applies it to
 * the engine and to the model, and checks that both agree on the revision. One thread at a time.
 */
final class IndexModel
{
    private static final int KEYS = 40;

    /** One changed key at one revision; old or new is null when the key was absent. */
    record Change(long revision, String key, KeyValue old, KeyValue now)
    {
    }

    private final TreeMap<String, KeyValue> state = new TreeMap<>();
    private final List<Change> history = new ArrayList<>();
    /** The changes of the write being modelled, committed under one revision. */
    private final List<Change> pending = new ArrayList<>();
    private final Random random;
    private final long seed;
    private long revision;
    private int nonce;

    IndexModel(final long seed)
    {
        this.seed = seed;
        this.random = new Random(seed);
    }

    long revision()
    {
        return revision;
    }

    List<Change> history()
    {
        return history;
    }

    /** Applies one random write to the engine and the model. */
    void step(final RingWatch engine)
    {
        final int dice = random.nextInt(10);
        final long engineRevision;
        if (dice < 6)
        {
            final String key = randomKey();
            final String value = PodValues.random(random, nonce++);
            engineRevision = engine.put(key, value).revision();
            put(key, value);
            commit();
        }
        else if (dice < 8)
        {
            final String key = randomKey();
            engineRevision = engine.delete(bytes(key)).revision();
            delete(key, key + "\0");
            commit();
        }
        else if (dice < 9)
        {
            final String prefix = "k" + random.nextInt(4);
            engineRevision = engine.delete(KeyRange.prefix(prefix)).revision();
            delete(prefix, prefix + "\u00ff");
            commit();
        }
        else
        {
            final String putKey = randomKey();
            String deleteKey = randomKey();
            while (deleteKey.equals(putKey))
            {
                deleteKey = randomKey();
            }
            final String value = PodValues.random(random, nonce++);
            engineRevision = engine.txn(Txn.of(List.of(), List.of(Op.put(putKey, value), Op.delete(deleteKey)), List.of()))
                .revision();
            put(putKey, value);
            delete(deleteKey, deleteKey + "\0");
            commit();
        }
        if (engineRevision != revision)
        {
            throw new AssertionError("engine revision " + engineRevision + " != model " + revision + " (seed " + seed + ")");
        }
    }

    /** The expected byIndex result over the state at the model's current revision. */
    List<KeyValue> byIndex(final Function<String, List<String>> function, final String indexValue)
    {
        return byIndex(state, function, indexValue);
    }

    /** The distinct index values of the current state. */
    TreeSet<String> indexValues(final Function<String, List<String>> function)
    {
        final TreeSet<String> values = new TreeSet<>();
        for (final KeyValue kv : state.values())
        {
            values.addAll(function.apply(kv.valueAsString()));
        }
        return values;
    }

    /** The events a watcher by index of {@code indexValue} (with prevKv) must see, in order. */
    List<Event> indexStream(final Function<String, List<String>> function, final String indexValue, final long fromRevision)
    {
        final List<Event> events = new ArrayList<>();
        for (final Change change : history)
        {
            if (change.revision() < fromRevision)
            {
                continue;
            }
            final boolean oldMatches = change.old() != null && function.apply(change.old().valueAsString()).contains(indexValue);
            final boolean newMatches = change.now() != null && function.apply(change.now().valueAsString()).contains(indexValue);
            final int mode = IndexMatch.of(oldMatches, newMatches);
            if (mode == IndexMatch.AS_IS)
            {
                events.add(new Event(EventType.PUT, change.now(), change.old()));
            }
            else if (mode == IndexMatch.AS_DELETE)
            {
                events.add(new Event(EventType.DELETE, new KeyValue(bytes(change.key()), new byte[0], 0, change.revision(), 0),
                    change.old()));
            }
            else if (mode == IndexMatch.AS_ADD)
            {
                events.add(new Event(EventType.PUT, change.now(), null));
            }
        }
        return events;
    }

    /** Rebuilds the state at successive revisions from the history; call with ascending revisions. */
    static final class Replay
    {
        private final List<Change> history;
        private final TreeMap<String, KeyValue> state = new TreeMap<>();
        private int next;

        Replay(final List<Change> history)
        {
            this.history = history;
        }

        List<KeyValue> byIndexAt(final long revision, final Function<String, List<String>> function, final String indexValue)
        {
            while (next < history.size() && history.get(next).revision() <= revision)
            {
                final Change change = history.get(next++);
                if (change.now() == null)
                {
                    state.remove(change.key());
                }
                else
                {
                    state.put(change.key(), change.now());
                }
            }
            return byIndex(state, function, indexValue);
        }
    }

    private static List<KeyValue> byIndex(
        final TreeMap<String, KeyValue> state, final Function<String, List<String>> function, final String indexValue)
    {
        final List<KeyValue> kvs = new ArrayList<>();
        for (final KeyValue kv : state.values())
        {
            if (function.apply(kv.valueAsString()).contains(indexValue))
            {
                kvs.add(kv);
            }
        }
        return kvs;
    }

    private void put(final String key, final String value)
    {
        final long rev = revision + 1;
        final KeyValue old = state.get(key);
        final KeyValue now = new KeyValue(bytes(key), bytes(value), old == null ? rev : old.createRevision(), rev,
            old == null ? 1 : old.version() + 1);
        state.put(key, now);
        pending.add(new Change(rev, key, old, now));
    }

    private void delete(final String from, final String to)
    {
        final List<String> doomed = new ArrayList<>(state.subMap(from, true, to, false).keySet());
        for (final String key : doomed)
        {
            pending.add(new Change(revision + 1, key, state.remove(key), null));
        }
    }

    private void commit()
    {
        if (!pending.isEmpty())
        {
            revision++;
            history.addAll(pending);
            pending.clear();
        }
    }

    private String randomKey()
    {
        return String.format("k%02d", random.nextInt(KEYS));
    }

    static byte[] bytes(final String s)
    {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static Map<String, Function<String, List<String>>> functions()
    {
        return Map.of("namespace", PodValues::namespacesOf, "label", PodValues::labelsOf);
    }
}
